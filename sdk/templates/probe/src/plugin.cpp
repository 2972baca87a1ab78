// %%name%%: a stand.probe/1 probe on the SDK's probe kit (made by `stand new
// adapter`). One job, "write-fsync": writes config.size_mib MiB in 1 MiB
// blocks to a file in config.dir, then fdatasync(); the time covers both, so
// the number is what the disk (not the page cache) took. RAM-backed folders
// (tmpfs, ramfs) are refused before any I/O. Replace the job with yours:
// list_jobs() names it, prepare() sets it up untimed, run() measures.
#include <stand/kits/probe/mount_info.hpp>

#include <stand/stand.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

constexpr const char* kJob = "write-fsync";
constexpr std::size_t kBlock = 1u << 20;

// The config, declared once (stand/cpp/config_spec.hpp): the constructor
// reads these keys and the descriptor's JSON Schema is written from them.
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        s.string("dir", "a folder on the disk to measure (not tmpfs)").by_default("/var/tmp");
        s.integer("size_mib", "how much one run writes").range(1, 65536).by_default(64);
        return s;
    }();
    return spec;
}

class %%Class%% : public stand::cpp::Instance, public stand::cpp::Probe {
public:
    %%Class%%(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        auto cfg = config_spec().read(config);
        dir_ = cfg.string("dir");
        size_mib_ = cfg.integer("size_mib");
        cfg.finish();
    }

    ~%%Class%%() override { remove_file(); }

    json::array list_jobs() override {
        return {json::object{{"id", kJob},
                             {"description", "write size_mib MiB in 1 MiB blocks, then fdatasync; MiB/s of both"}}};
    }

    void prepare(const std::string& job, const json::object&) override {
        check(job);
        const auto mount = stand_probe_kit::mount_of(dir_);
        if (mount.ram_backed)
            throw stand::cpp::Error(STAND_E_INVALID_ARGUMENT, "%%name%%: config.dir " + dir_ + " is on " + mount.fs_type +
                                                          " (RAM): a disk probe needs a folder on a disk");
        mount_ = mount;
        file_ = fs::path(dir_) / ("%%name%%-" + std::to_string(::getpid()) + ".dat");
    }

    json::object run(const std::string& job) override {
        check(job);
        if (file_.empty()) throw stand::cpp::Error(STAND_E_BAD_STATE, "%%name%%: run before prepare");
        const int fd = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) throw io_error("cannot create " + file_.string());
        const std::vector<char> block(kBlock, 'x');
        const std::uint64_t t0 = host_.monotonic_ns();
        for (std::int64_t i = 0; i < size_mib_; ++i) {
            if (host_.cancelled()) {
                ::close(fd);
                throw stand::cpp::Error(STAND_E_CANCELLED, "%%name%%: " + std::string(kJob) + " cancelled");
            }
            if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) {
                const stand::cpp::Error e = io_error("cannot write " + file_.string());
                ::close(fd);
                throw e;
            }
        }
        const bool synced = ::fdatasync(fd) == 0;
        const int sync_errno = errno;
        ::close(fd);
        if (!synced)
            throw stand::cpp::Error(STAND_E_IO, "%%name%%: fdatasync " + file_.string() + ": " + std::strerror(sync_errno));
        const double seconds = static_cast<double>(host_.monotonic_ns() - t0) / 1e9;
        return {{"metrics", {{"mib_s", static_cast<double>(size_mib_) / seconds}, {"seconds", seconds}}},
                {"facts", {{"filesystem", mount_.fs_type}, {"mount_point", mount_.mount_point},
                           {"size_mib", size_mib_}}},
                {"notes", json::array{"one pass; the time includes the final fdatasync"}}};
    }

    stand_result cleanup(const std::string& job) override {
        check(job);
        if (file_.empty()) return STAND_OK_NOTHING_TO_DO;
        remove_file();
        file_.clear();
        return STAND_OK;
    }

private:
    static void check(const std::string& job) {
        if (job != kJob)
            throw stand::cpp::Error(STAND_E_NOT_FOUND, "%%name%%: no job '" + job + "' (try " + kJob + ")");
    }

    static stand::cpp::Error io_error(const std::string& what) {
        return stand::cpp::Error(STAND_E_IO, "%%name%%: " + what + ": " + std::strerror(errno));
    }

    void remove_file() const {
        std::error_code ec;
        if (!file_.empty()) fs::remove(file_, ec);
    }

    stand::cpp::Host host_;
    std::string dir_;
    std::int64_t size_mib_ = 0;
    stand_probe_kit::MountInfo mount_;
    fs::path file_;
};

}  // namespace

STAND_CPP_PLUGIN(%%Class%%, "%%name%%", "%%name%%", "0.1.0",
                 "A probe made by `stand new adapter`: MiB/s of a write and its fdatasync in config.dir.",
                 config_spec())
