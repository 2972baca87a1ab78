// The stand.lifecycle/1 part every panel adapter shares: one data dir per
// instance (<plugin data dir>/<panel>), the credentials file beside it, and a
// Launcher (the panel's own command, or docker compose) behind install,
// start, stop, restart, wipe and facts. An adapter derives from it, calls
// launch() from its constructor, writes readiness(), and fills the hooks.
#pragma once

#include "launcher.hpp"

#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stand_panel_kit {

class PanelLifecycle : public stand::cpp::Lifecycle {
public:
    stand_result install() override;
    stand_result start() override;
    stand_result stop() override;
    stand_result restart() override;
    stand_result wipe() override;
    boost::json::object facts() override;

protected:
    PanelLifecycle(const stand::cpp::Host& host, std::string panel);

    // Builds the launcher. ${data_dir} is set to data_dir(); `vars` add the
    // adapter's own (port, listen, ...). `install_hint` ends the message
    // install() gives when the mode's program is missing.
    void launch(LaunchConfig config, const std::map<std::string, std::string>& vars, std::string install_hint);

    // What install() checks besides the mode's program (a core binary, data
    // files): throw stand::cpp::Error(STAND_E_NOT_FOUND, ...) naming it.
    virtual void check_install() {}
    // Called by start() before the panel is spawned (data dir created):
    // first-start configuration through the panel's own CLI, for example.
    virtual void before_start() {}
    // Called after restart(): a session may be gone.
    virtual void after_restart() {}
    // wipe(): drop cached ids and the API session; the files are gone already.
    virtual void forget() = 0;
    // The adapter's keys of facts() (versions, settings it applied, ...).
    virtual boost::json::object panel_facts() { return {}; }

    // For check_install() in docker mode: every image is present locally
    // (`docker image inspect`); STAND_E_NOT_FOUND names the first one missing.
    void check_docker_images(const std::vector<std::string>& images);

    const stand::cpp::Host& host() const noexcept { return host_; }
    const std::string& panel_name() const noexcept { return panel_; }
    std::filesystem::path data_dir() const;
    std::filesystem::path credentials_file() const;
    Launcher& launcher() const { return *launcher_; }

private:
    stand::cpp::Host host_;
    std::string panel_;
    std::string install_hint_;
    std::unique_ptr<Launcher> launcher_;
};

}  // namespace stand_panel_kit
