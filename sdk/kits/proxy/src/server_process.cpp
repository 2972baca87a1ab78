#include <stand/kits/proxy/server_process.hpp>

#include <csignal>

namespace stand_proxy_kit {

using stand::cpp::Error;

void ServerProcess::start(const stand::cpp::Host& host, boost::json::object spec, const std::string& box) {
    expect_not_running();
    if (!box.empty()) spec["box"] = box;
    process_ = std::make_unique<stand::cpp::Process>(host, spec);
}

stand_result ServerProcess::stop() {
    if (!process_) return STAND_OK_NOTHING_TO_DO;
    stand_process_status status{};
    process_->signal(graceful_);
    if (!process_->wait(grace_ms_, status)) {
        process_->signal(SIGKILL);
        process_->wait(-1, status);
    }
    process_.reset();
    return STAND_OK;
}

void ServerProcess::expect_not_running() const {
    if (process_) throw Error(STAND_E_BAD_STATE, label_ + ": already running");
}

void ServerProcess::expect_running() const {
    if (!process_) throw Error(STAND_E_BAD_STATE, label_ + ": not running");
}

void ServerProcess::expect_stopped(const std::string& what) const {
    if (process_) throw Error(STAND_E_BAD_STATE, label_ + ": stop before " + what);
}

void remove_data_dir(const std::filesystem::path& dir, const std::string& label) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (ec) throw Error(STAND_E_IO, label + ": cannot remove " + dir.string() + ": " + ec.message());
}

}  // namespace stand_proxy_kit
