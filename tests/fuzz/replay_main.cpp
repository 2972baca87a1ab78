// The main of a harness in the normal build: runs LLVMFuzzerTestOneInput
// over every file of the directories (or files) given, as libFuzzer does
// when it is given a corpus without -runs, and fails on a file that cannot
// be read or a directory that holds none (a corpus moved away must not pass
// as an empty replay). A finding aborts, as under libFuzzer.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool replay_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        std::cerr << file.string() << ": cannot read\n";
        return false;
    }
    // A copy of exactly `size` bytes, so that ASan sees a read past the input.
    std::vector<std::uint8_t> input(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(input.data(), input.size());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " CORPUS_DIR_OR_FILE...\n";
        return 2;
    }
    std::size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg = argv[i];
        std::error_code ec;
        if (std::filesystem::is_directory(arg, ec)) {
            std::vector<std::filesystem::path> files;
            for (const auto& e : std::filesystem::recursive_directory_iterator(arg))
                if (e.is_regular_file()) files.push_back(e.path());
            if (files.empty()) {
                std::cerr << arg.string() << ": no inputs\n";
                return 1;
            }
            for (const auto& f : files) {
                if (!replay_file(f)) return 1;
                ++replayed;
            }
        } else if (std::filesystem::is_regular_file(arg, ec)) {
            if (!replay_file(arg)) return 1;
            ++replayed;
        } else {
            std::cerr << arg.string() << ": no such file or directory\n";
            return 1;
        }
    }
    std::cout << "replayed " << replayed << " inputs\n";
    return 0;
}
