// The output files of a command that does its work first (`stand load`'s
// --histogram-out and --hdr-log), checked before the work: a file that
// cannot be written would be found only after the load, and lose it.
#pragma once

#include <string>

namespace stand::cli {

// Throws UsageError "COMMAND: --FLAG FILE: why" when FILE is empty, is not a
// regular file (a directory, FIFO or device), is a loop of links, or when
// stand cannot write into the folder of the file it names (through its
// links: a dangling link's target is the file written).
void check_output_file(const std::string& command, const std::string& flag, const std::string& file);

// Throws UsageError when two options name one file (the same path, through
// links, or two hard links of one file): one would overwrite the other.
void refuse_same_output_file(const std::string& command, const std::string& flag_a, const std::string& a,
                             const std::string& flag_b, const std::string& b);

}  // namespace stand::cli
