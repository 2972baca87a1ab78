// The links of a load, kept small enough for 100,000s of them: every URL in
// one text, and each link's method, headers and body as an index into the
// distinct shapes (the links of a storm share one). What a link costs here is
// its URL's bytes and 4 bytes (8 when the links have several shapes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stand::load {

using Header = std::pair<std::string, std::string>;

// What a link sends besides its URL.
struct LinkShape {
    std::string method = "GET";
    std::vector<Header> headers;  // after the spec's headers; same name replaces
    std::string body;             // sent with Content-Length when not empty
    bool operator==(const LinkShape&) const = default;
};

// One request template, as a copy (the cold path: checks, messages, tests).
struct Link {
    std::string method = "GET";
    std::string url;              // absolute http:// or https:// URL
    std::vector<Header> headers;  // after the spec's headers; same name replaces
    std::string body;             // sent with Content-Length when not empty
};

class LinkList {
public:
    LinkList() = default;
    LinkList(std::initializer_list<Link> links);

    void push_back(const Link& link);
    void push_back(std::string_view url, const LinkShape& shape);
    // Room for `links` more links of `url_bytes` URL bytes in all (no regrowth).
    void reserve(std::size_t links, std::size_t url_bytes);

    std::size_t size() const noexcept { return ends_.size(); }
    bool empty() const noexcept { return ends_.empty(); }
    std::string_view url(std::size_t k) const noexcept;
    const LinkShape& shape(std::size_t k) const noexcept {
        return shapes_[shape_of_.empty() ? 0 : shape_of_[k]];
    }
    Link operator[](std::size_t k) const;
    Link front() const { return (*this)[0]; }
    // Heap bytes held, for the memory benchmark.
    std::size_t bytes() const noexcept;

    class const_iterator {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = Link;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Link;
        const_iterator(const LinkList* list, std::size_t k) : list_(list), k_(k) {}
        Link operator*() const { return (*list_)[k_]; }
        const_iterator& operator++() {
            ++k_;
            return *this;
        }
        bool operator==(const const_iterator& o) const noexcept { return k_ == o.k_; }

    private:
        const LinkList* list_;
        std::size_t k_;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

private:
    std::uint32_t shape_index(const LinkShape& shape);

    std::string text_;                  // every URL, back to back
    std::vector<std::uint32_t> ends_;   // where link k's URL ends in text_
    std::vector<LinkShape> shapes_;     // the distinct shapes
    std::vector<std::uint32_t> shape_of_;  // per link, once there is a second shape
};

}  // namespace stand::load
