/* stand SDK umbrella header: everything a plugin may use. */
#ifndef STAND_STAND_H
#define STAND_STAND_H

#include "version.h"
#include "macros.h"
#include "result.h"
#include "sink.h"
#include "host.h"
#include "plugin.h"
#include "service/clock.h"
#include "service/files.h"
#include "service/http.h"
#include "service/process.h"
#include "service/progress.h"
#include "service/secrets.h"
#include "ext/lifecycle.h"
#include "ext/panel.h"
#include "ext/probe.h"
#include "ext/proxy.h"

#endif
