#include <stand/kits/panel/panel_lifecycle.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace stand_panel_kit {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;

namespace {

// A data dir longer than this gets a short ${socket_dir}: what the kit's
// declarations append (/<name>/.s.PGSQL.5432, 35 bytes with a 20-byte name)
// must keep a socket's path within sun_path's 107 bytes.
constexpr std::size_t kLongestDataDirForSockets = 67;

bool mentions(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// Whether a declared process names ${socket_dir} anywhere.
bool uses_socket_dir(const LaunchConfig& config) {
    const std::string var = "${socket_dir}";
    for (const auto& p : config.processes) {
        std::vector<std::string> texts = p.argv;
        texts.insert(texts.end(), p.ready.command.begin(), p.ready.command.end());
        for (const auto& [k, v] : p.env) texts.push_back(v);
        texts.insert(texts.end(), {p.ready.unix_socket, p.working_dir});
        for (const auto& t : texts)
            if (mentions(t, var)) return true;
    }
    return false;
}

}  // namespace

PanelLifecycle::PanelLifecycle(const stand::cpp::Host& host, std::string panel)
    : host_(host), panel_(std::move(panel)) {}

fs::path PanelLifecycle::data_dir() const { return fs::path(host_.data_dir()) / panel_; }

fs::path PanelLifecycle::credentials_file() const { return fs::path(host_.data_dir()) / (panel_ + "-credentials.json"); }

fs::path PanelLifecycle::socket_dir() const {
    const std::string dir = data_dir().string();
    if (dir.size() <= kLongestDataDirForSockets) return dir;
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: the same data dir, the same link, in every instance
    for (unsigned char c : dir) h = (h ^ c) * 1099511628211ULL;
    char name[32];
    std::snprintf(name, sizeof name, "stand-s-%016llx", static_cast<unsigned long long>(h));
    return fs::path("/tmp") / name / "data";
}

void PanelLifecycle::make_socket_link() const {
    const fs::path link = socket_dir();
    if (link == data_dir() || !uses_socket_dir(launcher_->config())) return;
    const fs::path folder = link.parent_path();
    auto refuse = [&](const std::string& why) {
        throw Error(STAND_E_IO, panel_ + ": the short folder of its unix sockets, " + folder.string() + ", " + why +
                                    " (the data dir " + data_dir().string() + " is too long a path for a socket in it)");
    };
    if (::mkdir(folder.c_str(), 0711) != 0 && errno != EEXIST) refuse(std::string("cannot be made: ") + std::strerror(errno));
    struct stat st {};
    if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 022))
        refuse("exists and is not a folder of stand's user that only it may write to");
    std::error_code ec;
    if (fs::read_symlink(link, ec) == data_dir()) return;
    fs::remove(link, ec);
    fs::create_directory_symlink(data_dir(), link, ec);
    if (ec) refuse("cannot hold the link " + link.string() + ": " + ec.message());
}

void PanelLifecycle::launch(LaunchConfig config, const std::map<std::string, std::string>& vars,
                            std::string install_hint) {
    install_hint_ = std::move(install_hint);
    launcher_ = std::make_unique<Launcher>(host_, panel_, std::move(config), data_dir());
    launcher_->set_variable("data_dir", data_dir().string());
    launcher_->set_variable("socket_dir", socket_dir().string());
    for (const auto& [k, v] : vars) launcher_->set_variable(k, v);
}

stand_result PanelLifecycle::install() {
    fs::create_directories(data_dir());  // first: a working directory may be in it
    launcher_->check_installed(install_hint_);
    install_hook();
    return STAND_OK;
}

void PanelLifecycle::check_docker_images(const std::vector<std::string>& images) {
    for (const auto& image : images) {
        try {
            launcher_->run_capture({launcher_->config().docker, "image", "inspect", "--format", "{{.Id}}", image},
                                   "docker image inspect " + image, 60000);
        } catch (const Error& e) {
            throw Error(STAND_E_NOT_FOUND, panel_ + ": install: the docker image " + image +
                                               " is not present (pull or build it; config.image names it): " + e.what());
        }
    }
}

stand_result PanelLifecycle::start() {
    fs::create_directories(data_dir());
    make_socket_link();
    start_hook();
    launcher_->start();
    return STAND_OK;
}

stand_result PanelLifecycle::stop() {
    if (!launcher_->running()) return STAND_OK_NOTHING_TO_DO;
    launcher_->stop();
    stop_hook();
    return STAND_OK;
}

stand_result PanelLifecycle::restart() {
    launcher_->restart();
    restart_hook();
    return STAND_OK;
}

stand_result PanelLifecycle::wipe() {
    if (launcher_->running()) throw Error(STAND_E_BAD_STATE, panel_ + ": stop before wipe");
    launcher_->wipe();
    std::error_code ec;
    fs::remove_all(data_dir(), ec);
    if (ec) throw Error(STAND_E_IO, panel_ + ": cannot remove " + data_dir().string() + ": " + ec.message());
    fs::remove(credentials_file(), ec);
    if (const fs::path link = socket_dir(); link != data_dir() && fs::is_symlink(fs::symlink_status(link, ec))) {
        fs::remove(link, ec);
        fs::remove(link.parent_path(), ec);  // only when empty
    }
    wipe_hook();
    return STAND_OK;
}

json::object PanelLifecycle::facts() {
    json::object f{{"data_dirs", json::array{data_dir().string()}}, {"credentials_file", credentials_file().string()}};
    for (const auto& [k, v] : launcher_->deployment_facts()) f[k] = v;
    for (const auto& [k, v] : facts_hook()) f[k] = v;
    return f;
}

}  // namespace stand_panel_kit
