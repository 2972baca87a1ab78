#include <stand/kits/panel/panel_lifecycle.hpp>

namespace stand_panel_kit {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;

PanelLifecycle::PanelLifecycle(const stand::cpp::Host& host, std::string panel)
    : host_(host), panel_(std::move(panel)) {}

fs::path PanelLifecycle::data_dir() const { return fs::path(host_.data_dir()) / panel_; }

fs::path PanelLifecycle::credentials_file() const { return fs::path(host_.data_dir()) / (panel_ + "-credentials.json"); }

void PanelLifecycle::launch(LaunchConfig config, const std::map<std::string, std::string>& vars,
                            std::string install_hint) {
    install_hint_ = std::move(install_hint);
    launcher_ = std::make_unique<Launcher>(host_, panel_, std::move(config), data_dir());
    launcher_->set_variable("data_dir", data_dir().string());
    for (const auto& [k, v] : vars) launcher_->set_variable(k, v);
}

stand_result PanelLifecycle::install() {
    fs::create_directories(data_dir());  // first: a working directory may be in it
    launcher_->check_installed(install_hint_);
    check_install();
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
    before_start();
    launcher_->start();
    return STAND_OK;
}

stand_result PanelLifecycle::stop() {
    if (!launcher_->running()) return STAND_OK_NOTHING_TO_DO;
    launcher_->stop();
    after_stop();
    return STAND_OK;
}

stand_result PanelLifecycle::restart() {
    launcher_->restart();
    after_restart();
    return STAND_OK;
}

stand_result PanelLifecycle::wipe() {
    if (launcher_->running()) throw Error(STAND_E_BAD_STATE, panel_ + ": stop before wipe");
    launcher_->wipe();
    std::error_code ec;
    fs::remove_all(data_dir(), ec);
    if (ec) throw Error(STAND_E_IO, panel_ + ": cannot remove " + data_dir().string() + ": " + ec.message());
    fs::remove(credentials_file(), ec);
    forget();
    return STAND_OK;
}

json::object PanelLifecycle::facts() {
    json::object f{{"data_dirs", json::array{data_dir().string()}}, {"credentials_file", credentials_file().string()}};
    for (const auto& [k, v] : launcher_->deployment_facts()) f[k] = v;
    for (const auto& [k, v] : panel_facts()) f[k] = v;
    return f;
}

}  // namespace stand_panel_kit
