// The candidate nearest to a mistyped word, for "did you mean ...?".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::text {

// Levenshtein distance (insertions, deletions, substitutions).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate at the smallest edit distance from `word` when that is at
// most a third of the word's length (at least 2); nullopt otherwise.
std::optional<std::string> closest_word(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace stand::text
