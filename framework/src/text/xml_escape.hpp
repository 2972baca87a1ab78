// Text safe in XML and HTML element content and quoted attributes.
#pragma once

#include <string>

namespace stand::text {

// XML's five special characters as entities (&amp; &lt; &gt; &quot; &apos;);
// what is not an XML 1.0 character (a control character, U+FFFE, U+FFFF and
// the other non-characters) and bytes that are not UTF-8 (a Latin-1 byte) as
// U+FFFD, so that every XML parser takes the file.
std::string xml_escape(const std::string& text);

}  // namespace stand::text
