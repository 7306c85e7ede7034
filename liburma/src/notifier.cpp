// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Notifiers and the asynchronous import and bind of jetties (UMDK): the
// call returns at once and its result arrives later on the notifier, whose
// fd becomes readable (epoll) and whose results urma_wait_notify hands out.
// On udma an import or a bind is one command to the local kernel that never
// waits for a peer, so the work is done before the call returns and only
// its result is queued: an import that fails returns NULL at once (errno
// set), as a failed submission does in UMDK; a bind's status is in its
// notification. The timeouts have nothing to bound.
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>

#include "log.h"
#include "object.h"
#include "urma_api.h"

namespace urma {
namespace {

struct NotifierImpl {
    urma_notifier_t pub;
    std::mutex *lock;                  // guards results and the eventfd's count
    std::deque<urma_notify_t> *results;  // oldest first
};

// Queues a result; the eventfd stays readable while any is queued.
void post(urma_notifier_t *notifier, const urma_notify_t &n)
{
    NotifierImpl *impl = from_pub<NotifierImpl>(notifier);
    std::lock_guard<std::mutex> guard(*impl->lock);
    impl->results->push_back(n);
    uint64_t one = 1;
    if (write(notifier->fd, &one, sizeof(one)) != sizeof(one))
        URMA_LOG_WARN("notifier: eventfd write failed: %s\n", std::strerror(errno));
}

// Takes up to cnt results; drains the eventfd when none is left.
int take(urma_notifier_t *notifier, uint32_t cnt, urma_notify_t *notify)
{
    NotifierImpl *impl = from_pub<NotifierImpl>(notifier);
    std::lock_guard<std::mutex> guard(*impl->lock);
    uint32_t n = 0;
    while (n < cnt && !impl->results->empty()) {
        notify[n++] = impl->results->front();
        impl->results->pop_front();
    }
    if (impl->results->empty()) {
        uint64_t v;
        while (read(notifier->fd, &v, sizeof(v)) == sizeof(v)) {
        }
    }
    return static_cast<int>(n);
}

}  // namespace
}  // namespace urma

using urma::NotifierImpl;

extern "C" {

urma_notifier_t *urma_create_notifier(urma_context_t *ctx)
{
    if (ctx == nullptr) {
        URMA_LOG_ERR("ctx is NULL\n");
        errno = EINVAL;
        return nullptr;
    }
    auto *impl = new (std::nothrow) NotifierImpl();
    if (impl != nullptr) {
        impl->lock = new (std::nothrow) std::mutex();
        impl->results = new (std::nothrow) std::deque<urma_notify_t>();
    }
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (impl == nullptr || impl->lock == nullptr || impl->results == nullptr || fd < 0) {
        int err = fd < 0 ? errno : ENOMEM;
        URMA_LOG_ERR("cannot create a notifier: %s\n", std::strerror(err));
        if (fd >= 0)
            close(fd);
        if (impl != nullptr) {
            delete impl->results;
            delete impl->lock;
        }
        delete impl;
        errno = err;
        return nullptr;
    }
    impl->pub.urma_ctx = ctx;
    impl->pub.fd = fd;
    impl->pub.incomplete_tjetty_list = nullptr;  // every import completes at once
    urma::ctx_get(ctx);
    return &impl->pub;
}

// Results not taken are dropped: their targets stay imported and their
// binds bound, to be undone by the usual calls.
urma_status_t urma_delete_notifier(urma_notifier_t *notifier)
{
    if (notifier == nullptr || notifier->urma_ctx == nullptr) {
        URMA_LOG_ERR("notifier is NULL\n");
        return URMA_EINVAL;
    }
    NotifierImpl *impl = urma::from_pub<NotifierImpl>(notifier);
    urma_context_t *ctx = notifier->urma_ctx;
    close(notifier->fd);
    delete impl->results;
    delete impl->lock;
    delete impl;
    urma::ctx_put(ctx);
    return URMA_SUCCESS;
}

int urma_wait_notify(urma_notifier_t *notifier, uint32_t cnt, urma_notify_t *notify, int timeout)
{
    if (notifier == nullptr || notifier->urma_ctx == nullptr || notify == nullptr) {
        URMA_LOG_ERR("invalid argument: notifier %p notify %p\n", static_cast<void *>(notifier),
                     static_cast<void *>(notify));
        errno = EINVAL;
        return -1;
    }
    if (cnt == 0)
        return 0;
    for (;;) {
        int n = urma::take(notifier, cnt, notify);
        if (n > 0)
            return n;
        struct pollfd p = {notifier->fd, POLLIN, 0};
        int ret = poll(&p, 1, timeout);
        if (ret == 0)
            return 0;
        if (ret < 0 && errno != EINTR) {
            URMA_LOG_ERR("wait_notify: poll failed: %s\n", std::strerror(errno));
            return -1;
        }
    }
}

urma_status_t urma_ack_notify(urma_context_t *ctx, uint32_t cnt, urma_notify_t *notify)
{
    (void)cnt;
    if (ctx == nullptr || notify == nullptr) {
        URMA_LOG_ERR("invalid argument: ctx %p notify %p\n", static_cast<void *>(ctx), static_cast<void *>(notify));
        return URMA_EINVAL;
    }
    return URMA_SUCCESS;  // UMDK's legacy no-op
}

urma_target_jetty_t *urma_import_jetty_async(urma_notifier_t *notifier, const urma_rjetty_t *rjetty,
                                             const urma_token_t *token_value, uint64_t user_ctx, int timeout)
{
    (void)timeout;
    if (notifier == nullptr || notifier->urma_ctx == nullptr || rjetty == nullptr || token_value == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        errno = EINVAL;
        return nullptr;
    }
    urma_rjetty_t r = *rjetty;
    urma_token_t t = *token_value;
    urma_target_jetty_t *tjetty = urma_import_jetty(notifier->urma_ctx, &r, &t);
    if (tjetty == nullptr)
        return nullptr;  // errno from the import
    urma_notify_t n = {};
    n.type = URMA_IMPORT_JETTY_NOTIFY;
    n.status = URMA_SUCCESS;
    n.user_ctx = user_ctx;
    n.tjetty = tjetty;
    urma::post(notifier, n);
    return tjetty;
}

urma_status_t urma_unimport_jetty_async(urma_target_jetty_t *tjetty)
{
    if (tjetty == nullptr) {
        URMA_LOG_ERR("tjetty is NULL\n");
        return URMA_EINVAL;
    }
    return urma_unimport_jetty(tjetty);
}

// UMDK's checks: both ends RC with the same order type (URMA_ENOPERM).
urma_status_t urma_bind_jetty_async(urma_notifier_t *notifier, urma_jetty_t *jetty, urma_target_jetty_t *tjetty,
                                    uint64_t user_ctx, int timeout)
{
    (void)timeout;
    if (notifier == nullptr || jetty == nullptr || tjetty == nullptr) {
        URMA_LOG_ERR("invalid argument\n");
        return URMA_EINVAL;
    }
    if (jetty->jetty_cfg.jfs_cfg.trans_mode != URMA_TM_RC || tjetty->trans_mode != URMA_TM_RC) {
        URMA_LOG_ERR("bind jetty %u (mode %d) to jetty %u (mode %d): both must be RC\n", jetty->jetty_id.id,
                     static_cast<int>(jetty->jetty_cfg.jfs_cfg.trans_mode), tjetty->id.id,
                     static_cast<int>(tjetty->trans_mode));
        return URMA_ENOPERM;
    }
    if (jetty->jetty_cfg.jfs_cfg.flag.bs.order_type != tjetty->flag.bs.order_type) {
        URMA_LOG_ERR("bind jetty %u to jetty %u: order types differ\n", jetty->jetty_id.id, tjetty->id.id);
        return URMA_ENOPERM;
    }
    urma_notify_t n = {};
    n.type = URMA_BIND_JETTY_NOTIFY;
    n.status = urma_bind_jetty(jetty, tjetty);
    n.user_ctx = user_ctx;
    n.jetty = jetty;
    urma::post(notifier, n);
    return URMA_SUCCESS;
}

urma_status_t urma_unbind_jetty_async(urma_jetty_t *jetty)
{
    if (jetty == nullptr || jetty->remote_jetty == nullptr) {
        URMA_LOG_ERR("jetty %s\n", jetty == nullptr ? "is NULL" : "is not bound");
        return URMA_EINVAL;
    }
    if (jetty->jetty_cfg.jfs_cfg.trans_mode != URMA_TM_RC) {
        URMA_LOG_ERR("jetty %u is not RC\n", jetty->jetty_id.id);
        return URMA_ENOPERM;
    }
    return urma_unbind_jetty(jetty);
}

}  // extern "C"
