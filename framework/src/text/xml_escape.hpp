// Text safe in XML and HTML element content and quoted attributes.
#pragma once

#include <string>

namespace stand::text {

// XML's five special characters as entities (&amp; &lt; &gt; &quot; &apos;),
// and the control characters XML 1.0 forbids even escaped as '?'.
std::string xml_escape(const std::string& text);

}  // namespace stand::text
