#include "load/link_list.hpp"

#include <algorithm>
#include <stdexcept>

namespace stand::load {

LinkList::LinkList(std::initializer_list<Link> links) {
    for (const auto& l : links) push_back(l);
}

void LinkList::push_back(const Link& link) { push_back(link.url, LinkShape{link.method, link.headers, link.body}); }

void LinkList::push_back(std::string_view url, const LinkShape& shape) {
    if (text_.size() + url.size() > UINT32_MAX) throw std::length_error("links: more than 4 GiB of URLs");
    const std::uint32_t index = shape_index(shape);
    if (index != 0 && shape_of_.empty()) shape_of_.assign(ends_.size(), 0);
    if (!shape_of_.empty()) shape_of_.push_back(index);
    text_.append(url);
    ends_.push_back(static_cast<std::uint32_t>(text_.size()));
}

void LinkList::reserve(std::size_t links, std::size_t url_bytes) {
    ends_.reserve(ends_.size() + links);
    text_.reserve(text_.size() + url_bytes);
}

std::uint32_t LinkList::shape_index(const LinkShape& shape) {
    // The last few shapes only: links with a shape each stay linear to add (they are just not shared).
    const std::size_t from = shapes_.size() > 8 ? shapes_.size() - 8 : 0;
    const auto it = std::find(shapes_.begin() + static_cast<std::ptrdiff_t>(from), shapes_.end(), shape);
    if (it != shapes_.end()) return static_cast<std::uint32_t>(it - shapes_.begin());
    shapes_.push_back(shape);
    return static_cast<std::uint32_t>(shapes_.size() - 1);
}

std::string_view LinkList::url(std::size_t k) const noexcept {
    const std::uint32_t begin = k == 0 ? 0 : ends_[k - 1];
    return std::string_view(text_).substr(begin, ends_[k] - begin);
}

Link LinkList::operator[](std::size_t k) const {
    const LinkShape& s = shape(k);
    return {s.method, std::string(url(k)), s.headers, s.body};
}

std::size_t LinkList::bytes() const noexcept {
    return text_.capacity() + ends_.capacity() * sizeof(std::uint32_t) +
           shape_of_.capacity() * sizeof(std::uint32_t) + shapes_.capacity() * sizeof(LinkShape);
}

}  // namespace stand::load
