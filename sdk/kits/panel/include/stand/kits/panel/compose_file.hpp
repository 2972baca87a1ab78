// A compose file as data: the services a panel's documented docker compose
// runs, rendered to YAML that docker compose, docker-compose 1.29 and
// podman-compose read. Every service takes the box as its cgroup parent
// (${STAND_CGROUP_PARENT}, which the launcher sets) unless told not to.
// Strings are written as given, double-quoted: ${data_dir} and the other
// adapter variables are expanded by the launcher when it writes the file,
// ${VAR} of compose's own is left for compose, and $$ is a literal $.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stand_panel_kit {

struct ComposeHealthcheck {
    std::vector<std::string> test;  // ["CMD-SHELL", "pg_isready ..."] or ["CMD", ...]
    std::string interval, timeout, start_period;
    int retries = 0;
};

struct ComposeService {
    std::string name;  // the service's key
    std::string image;
    std::string container_name;
    std::string hostname;
    bool in_box = true;        // cgroup_parent: ${STAND_CGROUP_PARENT}
    std::string network_mode;  // "host"; "": compose's project network
    bool tty = false;
    std::vector<std::string> cap_add;
    std::string shm_size;
    std::optional<long> nofile;  // ulimits: nofile soft = hard
    std::string env_file;
    std::vector<std::pair<std::string, std::string>> environment;
    std::vector<std::string> ports;
    std::vector<std::string> volumes;
    std::vector<std::string> entrypoint;
    std::vector<std::string> command;  // exec form
    std::optional<ComposeHealthcheck> healthcheck;
    std::vector<std::pair<std::string, std::string>> depends_on;  // service, condition (service_healthy, ...)
    std::vector<std::string> profiles;  // a service in a profile starts only when named (`up -d SERVICE`)
};

struct ComposeFile {
    std::vector<ComposeService> services;
    std::vector<std::string> volumes;  // named volumes
};

// A service in the box with these three set; the rest is the caller's.
ComposeService compose_service(std::string name, std::string image, std::string container_name);

std::string render_compose(const ComposeFile& file);

}  // namespace stand_panel_kit
