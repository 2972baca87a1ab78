// The system probe's measuring code: its sysbench events, OpenSSL EVP calls
// against known vectors, the `7z b` parser on real outputs, the timed runner,
// param checks. The plugin through a worker (contract keys, no-7z note):
// tests/unit/programs/sysprobe_plugin_test.cpp.
#include "crypto_event.hpp"
#include "job_catalogue.hpp"
#include "jobs.hpp"
#include "machine_facts.hpp"
#include "memory_event.hpp"
#include "prime_event.hpp"
#include "sevenzip_output.hpp"
#include "temp_dir.hpp"
#include "timed_run.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace stand_sysprobe;

namespace {

std::uint64_t sieve_primes_below(std::uint64_t n) {
    std::vector<bool> composite(n, false);
    std::uint64_t count = 0;
    for (std::uint64_t i = 2; i < n; ++i) {
        if (composite[i]) continue;
        ++count;
        for (std::uint64_t j = i * i; j < n; j += i) composite[j] = true;
    }
    return count;
}

std::vector<std::uint8_t> from_hex(std::string_view hex) {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
    return out;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (auto b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

std::string sample(const char* name) {
    std::ifstream in(std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests" / "data" / "sysprobe" / name);
    REQUIRE_MESSAGE(in.good(), "missing sample " << name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::span<const std::uint8_t> bytes_of(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

TEST_CASE("sysprobe: one sysbench cpu event counts the primes from 3 below max_prime") {
    CHECK(sieve_primes_below(20000) == 2262);
    CHECK(sysbench_cpu_event(20000) == 2261);  // sysbench starts at c = 3: 2 is never counted
    for (std::uint64_t limit : {3ull, 4ull, 5ull, 10ull, 100ull, 7919ull, 7920ull, 10000ull})
        CHECK_MESSAGE(sysbench_cpu_event(limit) == sieve_primes_below(limit) - 1, "max_prime " << limit);
}

TEST_CASE("sysprobe: memory blocks are read and written word by word and MiB/sec is computed as sysbench does") {
    MemoryBlock block(1 << 20);
    CHECK(block.word_count() == 131072);
    CHECK(reinterpret_cast<std::uintptr_t>(block.words()) % 4096 == 0);
    CHECK(read_block(block) == 0);
    write_block(block, 0xabcdefull);
    std::size_t written = 0;
    for (std::size_t i = 0; i < block.word_count(); ++i) written += block.words()[i] == 0xabcdefull;
    CHECK(written == block.word_count());
    CHECK(read_block(block) == 0xabcdefull);

    CHECK(mib_per_second(10240, 1 << 20, 2.0) == doctest::Approx(5120.0));
    CHECK(mib_per_second(3, 4096, 0.5) == doctest::Approx(3.0 * 4096 / 1048576 / 0.5));
    CHECK(mib_per_second(5, 1 << 20, 0.0) == 0.0);
    CHECK_THROWS_AS(MemoryBlock(4), std::invalid_argument);
}

TEST_CASE("sysprobe: AES-256-CBC through EVP matches NIST SP 800-38A F.2.5 also across chained calls") {
    const auto key = from_hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4");
    const auto iv = from_hex("000102030405060708090a0b0c0d0e0f");
    const std::string plain = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                              "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
    const std::string cipher = "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
                               "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b";
    std::span<const std::uint8_t, 32> k(key.data(), 32);
    std::span<const std::uint8_t, 16> v(iv.data(), 16);

    auto whole = from_hex(plain);
    AesCbcEncryptor(k, v).encrypt_in_place(whole);
    CHECK(to_hex(whole) == cipher);

    auto halves = from_hex(plain);
    AesCbcEncryptor chained(k, v);
    chained.encrypt_in_place(std::span(halves).first(32));
    chained.encrypt_in_place(std::span(halves).subspan(32));
    CHECK(to_hex(halves) == cipher);

    std::vector<std::uint8_t> odd(20);
    CHECK_THROWS_AS(chained.encrypt_in_place(odd), std::invalid_argument);
    CHECK(openssl_version().starts_with("OpenSSL"));
}

TEST_CASE("sysprobe: SHA-256 through EVP_Digest matches the FIPS 180-2 vectors") {
    Sha256Digest sha;
    CHECK(to_hex(sha.digest(bytes_of(""))) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(to_hex(sha.digest(bytes_of("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(to_hex(sha.digest(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const std::string million(1000000, 'a');
    CHECK(to_hex(sha.digest(bytes_of(million))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sysprobe: 7z b output of p7zip 16.02") {
    const auto r = parse_sevenzip_bench(sample("7z-b-16.02-p7zip-atom-n455.txt"));
    CHECK(r.total_mips == 1309);
    CHECK(r.usage_pct == 181);
    CHECK(r.ru_mips == 716);
    CHECK(r.compress_mips == 1068);
    CHECK(r.decompress_mips == 1551);
    CHECK(r.benchmark_threads == 2);
    CHECK(r.version == "16.02");
    CHECK(r.p7zip_version == "16.02");
    CHECK(r.banner == "7-Zip [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21");
}

TEST_CASE("sysprobe: 7z b output of 7-Zip 26.02 (speed column on Avr:)") {
    const auto r = parse_sevenzip_bench(sample("7z-b-26.02-debian-p7zip-full.txt"));
    CHECK(r.total_mips == 2289);
    CHECK(r.usage_pct == 77);
    CHECK(r.ru_mips == 2935);
    CHECK(r.compress_mips == 2305);
    CHECK(r.decompress_mips == 2272);
    CHECK(r.benchmark_threads == 2);
    CHECK(r.version == "26.02");
    CHECK(r.p7zip_version == "16.02");
}

TEST_CASE("sysprobe: 7z banners and CRLF output and output without a rating") {
    CHECK(sevenzip_version_of("7-Zip (z) 23.01 (x64) : Copyright (c) 1999-2023 Igor Pavlov : 2023-06-20") == "23.01");
    CHECK(sevenzip_version_of("7-Zip 22.01 (x64) : Copyright (c) 1999-2022 Igor Pavlov : 2022-07-15") == "22.01");
    CHECK(sevenzip_version_of("7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21") == "16.02");
    CHECK_FALSE(sevenzip_version_of("p7zip Version 16.02 (locale=C)").has_value());

    const auto crlf = parse_sevenzip_bench("7-Zip (z) 23.01 (x64) : Copyright\r\nRAM usage: 1 MB, # Benchmark threads: 4\r\n"
                                           "Avr:  100  900  3000  2800 |  200  100  1900  1800\r\nTot:  100  2400  2300\r\n");
    CHECK(crlf.total_mips == 2300);
    CHECK(crlf.compress_mips == 2800);
    CHECK(crlf.decompress_mips == 1800);
    CHECK(crlf.benchmark_threads == 4);
    CHECK(crlf.version == "23.01");

    // found by tests/fuzz (sysprobe_output): the count was cast to int whatever it was (UBSan: 2.7e60 outside int)
    for (const char* threads : {"2666666666666666666666666666666666666666666666666666666666666", "nan", "-1", "2.5"})
        CHECK(parse_sevenzip_bench(std::string("RAM usage: 1 MB, # Benchmark threads: ") + threads + "\nTot: 100 2400 2300\n")
                  .benchmark_threads == 0);

    CHECK_THROWS_WITH_AS(parse_sevenzip_bench("7-Zip 23.01\nSystem ERROR:\nE_OUTOFMEMORY\n"), doctest::Contains("no \"Tot:\" line"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(parse_sevenzip_bench("Tot:  99  2144\n"), doctest::Contains("has 2 numbers"), std::runtime_error);
}

TEST_CASE("sysprobe: timed runs end at the event budget or the duration or on cancellation and rethrow errors") {
    Control quiet;
    std::atomic<std::uint64_t> calls{0};
    auto counting = [&](unsigned) -> EventFn { return [&] { calls.fetch_add(1); }; };

    TimedRunSpec budget;
    budget.threads = 3;
    budget.duration = 10s;
    budget.events_per_thread = 7;
    auto r = run_timed(budget, counting, quiet, "test");
    CHECK(r.events == 21);
    CHECK(calls.load() == 21);
    CHECK(r.seconds < 5.0);

    TimedRunSpec timed;
    timed.threads = 2;
    timed.duration = 300ms;
    auto sleepy = [](unsigned) -> EventFn { return [] { std::this_thread::sleep_for(2ms); }; };
    std::vector<double> reported;
    Control reporting{nullptr, [&](double f, const char*) { reported.push_back(f); }};
    r = run_timed(timed, sleepy, reporting, "test");
    CHECK(r.seconds >= 0.3);
    CHECK(r.seconds < 1.0);
    CHECK(r.events > 0);
    CHECK(reported.size() >= 3);  // at least every 50 ms
    CHECK(reported.back() == doctest::Approx(1.0));

    std::atomic<bool> cancel{false};
    Control cancelling{[&] { return cancel.load(); }, nullptr};
    TimedRunSpec long_run;
    long_run.duration = 60s;
    std::thread canceller([&] {
        std::this_thread::sleep_for(100ms);
        cancel = true;
    });
    const auto t0 = std::chrono::steady_clock::now();
    r = run_timed(long_run, sleepy, cancelling, "test");
    canceller.join();
    CHECK(r.cancelled);
    CHECK(std::chrono::steady_clock::now() - t0 < 1s);

    auto failing = [](unsigned i) -> EventFn {
        return [i] {
            if (i == 1) throw std::runtime_error("event failed");
        };
    };
    TimedRunSpec two;
    two.threads = 2;
    two.duration = 10s;
    CHECK_THROWS_WITH(run_timed(two, failing, quiet, "test"), "event failed");
}

TEST_CASE("sysprobe: params are checked and errors name the plugin and the job and the param") {
    namespace json = boost::json;
    auto settings = read_settings(find_job("cpu-all"), {});
    CHECK(std::get<CpuSettings>(settings).threads == online_cpus());
    CHECK(std::get<CpuSettings>(settings).max_prime == 20000);
    CHECK(std::get<CpuSettings>(read_settings(find_job("cpu-1t"), {})).threads == 1);
    auto mem = std::get<MemorySettings>(read_settings(find_job("mem-write"), json::object{{"scope", "local"}}));
    CHECK(mem.write);
    CHECK_FALSE(mem.shared_buffer);
    CHECK(mem.block_bytes == 1 << 20);
    CHECK(mem.total_bytes == 10ull << 30);
    CHECK(std::get<CryptoSettings>(read_settings(find_job("sha256"), {})).block_bytes == 16384);

    CHECK_THROWS_WITH(read_settings(find_job("mem-read"), json::object{{"block_size_kib", 1000}}),
                      doctest::Contains("sysprobe: mem-read: params.block_size_kib: 1000 is not a power of two"));
    CHECK_THROWS_WITH(read_settings(find_job("cpu-1t"), json::object{{"max_prime", 2}}),
                      doctest::Contains("sysprobe: cpu-1t: params.max_prime: 2 is out of range"));
    CHECK_THROWS_WITH(read_settings(find_job("cpu-1t"), json::object{{"threds", 2}}),
                      "sysprobe: cpu-1t: params.threds: unknown key");
    CHECK_THROWS_WITH(read_settings(find_job("aes-256-cbc"), json::object{{"block_bytes", 100}}),
                      doctest::Contains("sysprobe: aes-256-cbc: params.block_bytes: 100 is not a multiple"));
    CHECK_THROWS_WITH(read_settings(find_job("mem-read"), json::object{{"total_mib", 1}, {"threads", 2}}),
                      doctest::Contains("params.total_mib"));
    try {
        find_job("gpu");
        FAIL("find_job accepted an unknown job");
    } catch (const stand::cpp::Error& e) {
        CHECK(e.code() == STAND_E_NOT_FOUND);
        CHECK(std::string(e.what()).find("cpu-1t, cpu-all, mem-read, mem-write, aes-256-cbc, sha256, 7z-bench") != std::string::npos);
    }
}

TEST_CASE("sysprobe: cpu model from cpuinfo and tools on a PATH") {
    stand::test::TempDir dir;
    std::ofstream(dir.path() / "x86") << "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7763 64-Core Processor\n\n";
    std::ofstream(dir.path() / "arm") << "processor\t: 0\nBogoMIPS\t: 48.00\n\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4\n";
    CHECK(cpu_model((dir.path() / "x86").string()) == "AMD EPYC 7763 64-Core Processor");
    CHECK(cpu_model((dir.path() / "arm").string()) == "BCM2835");
    CHECK(cpu_model((dir.path() / "absent").string()) == "unknown");

    std::filesystem::create_directory(dir.path() / "bin");
    const auto tool = dir.path() / "bin" / "7zz";
    std::ofstream(tool) << "#!/bin/sh\n";
    CHECK_FALSE(find_executable({"7z", "7zz"}, (dir.path() / "bin").string()).has_value());  // not executable yet
    std::filesystem::permissions(tool, std::filesystem::perms::owner_all);
    CHECK(find_executable({"7z", "7zz"}, "/nonexistent:" + (dir.path() / "bin").string()) == tool.string());
    CHECK_FALSE(find_executable({"7z"}, (dir.path() / "bin").string()).has_value());
}

TEST_CASE("sysprobe: cpu and memory and crypto jobs fill the output contract") {
    Control quiet;
    CpuSettings cpu;
    cpu.duration_s = 1;
    auto out = run_cpu_job("cpu-1t", cpu, quiet).to_json();
    const auto& m = out.at("metrics").as_object();
    CHECK(m.at("events_s").to_number<double>() > 0);
    CHECK(m.at("threads").to_number<double>() == 1);
    CHECK(m.at("max_prime").to_number<double>() == 20000);
    CHECK(m.at("seconds").to_number<double>() == doctest::Approx(1.0).epsilon(0.2));
    CHECK(out.at("facts").at("tool").as_string() == "sysbench cpu --cpu-max-prime=20000 --threads=1 --time=1 run");
    CHECK(out.at("facts").at("primes_per_event").to_number<double>() == 2261);

    MemorySettings mem;
    mem.total_bytes = 64ull << 20;
    mem.duration_s = 10;
    out = run_memory_job("mem-read", mem, quiet).to_json();
    CHECK(out.at("metrics").at("mib_s").to_number<double>() > 0);
    CHECK(out.at("metrics").at("transferred_mib").to_number<double>() == 64);
    CHECK(out.at("metrics").at("block_size_kib").to_number<double>() == 1024);
    CHECK(out.at("notes").as_array().empty());
    CHECK(out.at("facts").at("tool").as_string() ==
          "sysbench memory --memory-block-size=1M --memory-total-size=64M --memory-oper=read --memory-scope=global --threads=1 --time=10 run");

    CryptoSettings aes;
    aes.duration_s = 1;
    out = run_crypto_job("aes-256-cbc", aes, quiet).to_json();
    CHECK(out.at("metrics").at("mb_s").to_number<double>() > 0);
    CHECK(out.at("metrics").at("block_bytes").to_number<double>() == 16384);
    CHECK(out.at("facts").at("openssl_version").as_string().starts_with("OpenSSL"));
    CHECK(out.at("facts").at("tool").as_string() == "openssl speed -seconds 1 -bytes 16384 -evp aes-256-cbc");
}
