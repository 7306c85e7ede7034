// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// liburma's internal logging: messages go to the sink the application
// registered (urma_register_log_func) or to syslog, filtered by level.
#pragma once

#include "urma_types.h"

namespace urma {

// True when a message of this level would be emitted; lets callers skip
// building expensive messages.
bool log_enabled(urma_vlog_level_t level) noexcept;

void log(urma_vlog_level_t level, const char *file, const char *func, int line,
         const char *fmt, ...) noexcept __attribute__((format(printf, 5, 6)));

}  // namespace urma

#define URMA_LOG(level, ...)                                                    \
    do {                                                                        \
        if (urma::log_enabled(level))                                           \
            urma::log(level, __FILE__, __func__, __LINE__, __VA_ARGS__);        \
    } while (0)
#define URMA_LOG_ERR(...) URMA_LOG(URMA_VLOG_LEVEL_ERR, __VA_ARGS__)
#define URMA_LOG_WARN(...) URMA_LOG(URMA_VLOG_LEVEL_WARNING, __VA_ARGS__)
#define URMA_LOG_INFO(...) URMA_LOG(URMA_VLOG_LEVEL_INFO, __VA_ARGS__)
#define URMA_LOG_DEBUG(...) URMA_LOG(URMA_VLOG_LEVEL_DEBUG, __VA_ARGS__)
