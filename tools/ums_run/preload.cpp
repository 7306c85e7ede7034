// SPDX-License-Identifier: MIT
// libums-preload.so: socket() with AF_INET or AF_INET6, SOCK_STREAM and
// protocol 0 or IPPROTO_TCP makes an AF_SMC socket instead (protocol
// SMCPROTO_SMC or SMCPROTO_SMC6 for the IP family), as UMDK's ums-preload
// does; every other socket is the C library's. UMS_DEBUG (not "0") prints
// each one mapped on stderr.
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <netinet/in.h>
#include <sys/socket.h>

#ifndef AF_SMC
#define AF_SMC 43
#endif

namespace {

constexpr int kSmcProtoSmc = 0;		// SMCPROTO_SMC: IPv4
constexpr int kSmcProtoSmc6 = 1;	// SMCPROTO_SMC6: IPv6
constexpr int kSockTypeMask = 0xf;	// SOCK_NONBLOCK, SOCK_CLOEXEC aside

using socket_fn = int (*)(int, int, int);

socket_fn real_socket()
{
	static socket_fn fn =
		reinterpret_cast<socket_fn>(dlsym(RTLD_NEXT, "socket"));
	return fn;
}

bool debug()
{
	static const bool on = [] {
		const char *v = getenv("UMS_DEBUG");
		return v && v[0] && v[0] != '0';
	}();
	return on;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int socket(int domain,
							     int type,
							     int protocol)
{
	if ((domain == AF_INET || domain == AF_INET6) &&
	    (type & kSockTypeMask) == SOCK_STREAM &&
	    (protocol == IPPROTO_IP || protocol == IPPROTO_TCP)) {
		protocol = domain == AF_INET6 ? kSmcProtoSmc6 : kSmcProtoSmc;
		domain = AF_SMC;
		if (debug())
			fprintf(stderr, "libums-preload: map sock to AF_SMC\n");
	}
	return real_socket()(domain, type, protocol);
}
