// aes-256-cbc / sha256: openssl speed's loops on one thread (openssl speed
// runs one process unless -multi), time-based. mb_s divides by wall-clock
// time; mb_s_user_cpu by the thread's user CPU time, which is what
// `openssl speed` divides by unless given -elapsed.
#include <array>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "crypto_event.hpp"
#include "jobs.hpp"

namespace stand_sysprobe {
namespace {

constexpr std::array<std::uint8_t, AesCbcEncryptor::kKeyBytes> kKey = {
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
    0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0};
constexpr std::array<std::uint8_t, AesCbcEncryptor::kIvBytes> kIv{};  // openssl speed's iv is zero too

}  // namespace

JobOutput run_crypto_job(const std::string& job_id, const CryptoSettings& s, const Control& control) {
    std::vector<std::uint8_t> buffer(s.block_bytes);
    std::iota(buffer.begin(), buffer.end(), std::uint8_t{0});
    std::unique_ptr<AesCbcEncryptor> aes;
    std::unique_ptr<Sha256Digest> sha;
    try {
        if (s.sha256) sha = std::make_unique<Sha256Digest>();
        else aes = std::make_unique<AesCbcEncryptor>(kKey, kIv);
    } catch (const std::exception& e) {
        throw stand::cpp::Error(STAND_E_UNSUPPORTED, "sysprobe: " + job_id + ": " + e.what());
    }
    std::array<std::uint8_t, Sha256Digest::kDigestBytes> last_digest{};

    TimedRunSpec spec;
    spec.threads = 1;
    spec.duration = std::chrono::seconds(s.duration_s);
    TimedRunResult r;
    try {
        r = run_timed(
            spec,
            [&](unsigned) -> EventFn {
                if (s.sha256) return [&] { last_digest = sha->digest(buffer); };
                return [&] { aes->encrypt_in_place(buffer); };
            },
            control, s.sha256 ? "openssl speed sha256" : "openssl speed -evp aes-256-cbc");
    } catch (const std::exception& e) {
        throw stand::cpp::Error(STAND_E_INTERNAL, "sysprobe: " + job_id + ": " + e.what());
    }
    throw_if_cancelled(job_id, r);

    const double bytes = static_cast<double>(r.events) * static_cast<double>(s.block_bytes);
    JobOutput out;
    out.metrics = {{"mb_s", bytes / r.seconds / 1e6},
                   {"block_bytes", s.block_bytes},
                   {"seconds", r.seconds},
                   {"mb_s_user_cpu", r.user_cpu_s > 0 ? bytes / r.user_cpu_s / 1e6 : 0.0},
                   {"user_cpu_s", r.user_cpu_s},
                   {"calls", r.events}};
    const std::string tail = " -bytes " + std::to_string(s.block_bytes) + (s.sha256 ? " sha256" : " -evp aes-256-cbc");
    out.facts = {{"tool", "openssl speed -seconds " + std::to_string(s.duration_s) + tail},
                 {"openssl_version", openssl_version()}};
    return out;
}

}  // namespace stand_sysprobe
