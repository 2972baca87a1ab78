#include "child/process_tree.hpp"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace stand::child {

namespace {

std::vector<pid_t> children_of(pid_t pid) {
    std::vector<pid_t> out;
    std::error_code ec;
    const std::filesystem::path tasks = "/proc/" + std::to_string(pid) + "/task";
    for (const auto& task : std::filesystem::directory_iterator(tasks, ec)) {
        std::ifstream in(task.path() / "children");
        for (long child = 0; in >> child;) out.push_back(static_cast<pid_t>(child));
    }
    return out;
}

}  // namespace

std::vector<pid_t> descendants_of(pid_t pid) {
    std::vector<pid_t> all = children_of(pid);
    for (std::size_t i = 0; i < all.size(); ++i)
        for (pid_t grandchild : children_of(all[i])) all.push_back(grandchild);
    return all;
}

int kill_descendants(pid_t pid) {
    // Stopped first, so that none forks again while the tree is walked.
    std::vector<pid_t> tree = descendants_of(pid);
    for (pid_t p : tree) ::kill(p, SIGSTOP);
    tree = descendants_of(pid);
    for (pid_t p : tree) {
        if (::getpgid(p) == p) ::kill(-p, SIGKILL);
        ::kill(p, SIGKILL);
    }
    for (pid_t p : tree) {
        while (::waitpid(p, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    return static_cast<int>(tree.size());
}

}  // namespace stand::child
