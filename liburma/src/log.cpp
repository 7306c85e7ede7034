// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Log level and log sink of liburma (urma_register_log_func and friends).
#include "log.h"

#include <syslog.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "urma_api.h"

namespace urma {
namespace {

constexpr size_t kMaxMessage = 512;

// Level from URMA_LOG_LEVEL: a number 0..7 or a name (ERR, WARNING, ...).
urma_vlog_level_t level_from_env() noexcept
{
    static const char *const names[] = {"EMERG", "ALERT", "CRIT", "ERR",
                                        "WARNING", "NOTICE", "INFO", "DEBUG"};
    const char *env = std::getenv("URMA_LOG_LEVEL");

    if (env == nullptr)
        return URMA_VLOG_LEVEL_INFO;
    for (int i = 0; i < URMA_VLOG_LEVEL_MAX; i++) {
        if (strcasecmp(env, names[i]) == 0 ||
            (env[0] == '0' + i && env[1] == '\0'))
            return static_cast<urma_vlog_level_t>(i);
    }
    return URMA_VLOG_LEVEL_INFO;
}

std::atomic<int> g_level{level_from_env()};

void syslog_sink(int level, char *message)
{
    syslog(level, "%s", message);
}

// The sink: g_loc_sink when set, else g_sink. Guarded by g_sink_lock; a
// message is delivered under it, so an unregister never races a delivery to
// the callback being removed. Recursive, so that a callback may itself call
// into liburma (and log) without deadlocking.
std::recursive_mutex g_sink_lock;
urma_log_cb_t g_sink = syslog_sink;
urma_loc_log_cb g_loc_sink = nullptr;

// The calling thread's tag (urma_log_set_thread_tag), in each of its
// messages after the thread ID, as UMDK prints it; "-" until set.
thread_local char t_thread_tag[URMA_MAX_NAME] = "-";

}  // namespace

bool log_enabled(urma_vlog_level_t level) noexcept
{
    return static_cast<int>(level) <= g_level.load(std::memory_order_relaxed);
}

void log(urma_vlog_level_t level, const char *file, const char *func, int line,
         const char *fmt, ...) noexcept
{
    char msg[kMaxMessage];
    const char *base = std::strrchr(file, '/');
    va_list ap;
    int n;

    n = std::snprintf(msg, sizeof(msg), "liburma|%ld|%s|%s[%d]|", static_cast<long>(syscall(SYS_gettid)),
                      t_thread_tag, func, line);
    if (n < 0 || static_cast<size_t>(n) >= sizeof(msg))
        n = 0;
    va_start(ap, fmt);
    std::vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
    va_end(ap);

    std::lock_guard<std::recursive_mutex> guard(g_sink_lock);
    if (g_loc_sink != nullptr)
        g_loc_sink(level, base ? base + 1 : file, func, line, msg);
    else
        g_sink(level, msg);
}

}  // namespace urma

extern "C" {

urma_status_t urma_register_log_func(urma_log_cb_t func)
{
    if (func == nullptr) {
        URMA_LOG_ERR("log function is NULL\n");
        return URMA_EINVAL;
    }
    std::lock_guard<std::recursive_mutex> guard(urma::g_sink_lock);
    urma::g_sink = func;
    urma::g_loc_sink = nullptr;
    return URMA_SUCCESS;
}

urma_status_t urma_register_loc_log_func(urma_loc_log_cb func)
{
    if (func == nullptr) {
        URMA_LOG_ERR("log function is NULL\n");
        return URMA_EINVAL;
    }
    std::lock_guard<std::recursive_mutex> guard(urma::g_sink_lock);
    urma::g_loc_sink = func;
    return URMA_SUCCESS;
}

urma_status_t urma_unregister_log_func(void)
{
    std::lock_guard<std::recursive_mutex> guard(urma::g_sink_lock);
    urma::g_sink = urma::syslog_sink;
    urma::g_loc_sink = nullptr;
    return URMA_SUCCESS;
}

urma_vlog_level_t urma_log_get_level(void)
{
    return static_cast<urma_vlog_level_t>(urma::g_level.load(std::memory_order_relaxed));
}

void urma_log_set_level(urma_vlog_level_t level)
{
    if (level >= URMA_VLOG_LEVEL_MAX) {
        URMA_LOG_WARN("log level %d out of range, kept %d\n", static_cast<int>(level),
                      urma::g_level.load());
        return;
    }
    urma::g_level.store(level, std::memory_order_relaxed);
}

const char *urma_log_get_thread_tag(void)
{
    return urma::t_thread_tag;
}

// A tag of URMA_MAX_NAME or more characters (or none) is refused with a log
// line and the old tag kept, as UMDK does.
void urma_log_set_thread_tag(const char *tag)
{
    if (tag == nullptr || strnlen(tag, URMA_MAX_NAME) >= URMA_MAX_NAME) {
        URMA_LOG_ERR("thread tag %s\n", tag == nullptr ? "is NULL" : "is too long");
        return;
    }
    std::memcpy(urma::t_thread_tag, tag, std::strlen(tag) + 1);
}

}  // extern "C"
