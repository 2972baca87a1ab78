// The cost of a call from the host into a plugin through the C ABI, next to a
// plain indirect call inside the host as the floor. Goal: <= 50 ns per call.
#include "host/plugin_host.hpp"
#include "loader/plugin_loader.hpp"

#include "../fixtures/noop_interface.h"

#include <stand/stand.h>

#include <benchmark/benchmark.h>

#include <filesystem>

namespace {

std::filesystem::path fixture(const char* id) {
    return std::filesystem::path(STAND_TEST_BINARY_DIR) / "tests" / "fixtures" / (std::string(id) + ".so");
}

struct Loaded {
    std::shared_ptr<stand::loader::LoadedPlugin> plugin;
    std::unique_ptr<stand::host::PluginHost> host;
    stand_instance* instance = nullptr;

    explicit Loaded(const char* id) : plugin(stand::loader::load_plugin(fixture(id))) {
        stand::host::HostConfig config;
        config.run_dir = std::filesystem::temp_directory_path() / "stand-abi-bench";
        host = std::make_unique<stand::host::PluginHost>(id, config);
        if (plugin->entry.create(host->get(), "{}", 2, &instance, nullptr) != STAND_OK)
            throw std::runtime_error(std::string("cannot create ") + id);
    }
    ~Loaded() { plugin->entry.destroy(instance); }
};

__attribute__((noinline)) stand_result local_noop(stand_instance*) { return STAND_OK; }

void BM_host_local_indirect_call(benchmark::State& state) {
    stand_result (*volatile fn)(stand_instance*) = &local_noop;
    for (auto _ : state) benchmark::DoNotOptimize(fn(nullptr));
}
BENCHMARK(BM_host_local_indirect_call);

void BM_abi_call_c_plugin(benchmark::State& state) {
    Loaded loaded("fixture-noop");
    auto* table = static_cast<const stand_test_noop*>(loaded.plugin->entry.get_interface(loaded.instance, STAND_TEST_NOOP_ID));
    for (auto _ : state) benchmark::DoNotOptimize(table->noop(loaded.instance));
}
BENCHMARK(BM_abi_call_c_plugin);

void BM_abi_call_cpp_helper_thunk(benchmark::State& state) {
    Loaded loaded("fixture-cpp-noop");
    auto* table = static_cast<const stand_lifecycle*>(loaded.plugin->entry.get_interface(loaded.instance, STAND_LIFECYCLE_ID));
    char message[256];
    stand_error err{sizeof(stand_error), sizeof(message), message};
    for (auto _ : state) benchmark::DoNotOptimize(table->install(loaded.instance, &err));
}
BENCHMARK(BM_abi_call_cpp_helper_thunk);

void BM_abi_get_interface_lookup(benchmark::State& state) {
    Loaded loaded("fixture-cpp-noop");
    for (auto _ : state)
        benchmark::DoNotOptimize(loaded.plugin->entry.get_interface(loaded.instance, STAND_LIFECYCLE_ID));
}
BENCHMARK(BM_abi_get_interface_lookup);

}  // namespace

BENCHMARK_MAIN();
