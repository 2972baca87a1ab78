#!/bin/sh
# The stand's local 3x-ui image: starts the panel as the official image's
# entrypoint does (its arguments are ignored there too, so a helper command
# such as `x-ui setting` needs --entrypoint /app/x-ui). This image has no
# fail2ban: XUI_ENABLE_FAIL2BAN=true is refused instead of silently ignored.
if [ "$XUI_ENABLE_FAIL2BAN" = "true" ]; then
  echo "stand's 3x-ui image has no fail2ban: set XUI_ENABLE_FAIL2BAN=false" >&2
  exit 1
fi
exec /app/x-ui
