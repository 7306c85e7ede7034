// SPDX-License-Identifier: MIT
#include "cli.h"

namespace ums_run {

bool parse(const std::vector<std::string> &args, Options *opts,
	   std::string *error)
{
	size_t i = 0;

	for (; i < args.size(); i++) {
		const std::string &a = args[i];
		if (a == "--") {
			i++;
			break;
		}
		if (a == "-h" || a == "--help") {
			opts->help = true;
			return true;
		}
		if (a == "-d") {
			opts->debug = true;
			continue;
		}
		if (a.size() > 1 && a[0] == '-') {
			*error = "Error: invalid option: " + a;
			return false;
		}
		break;
	}
	opts->command.assign(args.begin() + static_cast<long>(i), args.end());
	if (opts->command.empty()) {
		*error = "Error: Missing command param";
		return false;
	}
	return true;
}

std::string usage()
{
	return "usage: ums_run [-d] COMMAND [ARGS...]\n"
	       "Run COMMAND with its TCP sockets (AF_INET and AF_INET6, "
	       "SOCK_STREAM) created\n"
	       "as UMS sockets (AF_SMC): they use UB where both ends can and "
	       "fall back to\n"
	       "TCP where not. Needs ums.ko loaded (modprobe ums).\n"
	       "  -d          print each socket mapped to AF_SMC on stderr "
	       "(UMS_DEBUG=1)\n"
	       "  -h, --help  this help\n"
	       "Environment: UMS_PRELOAD_LIB, the library to preload instead "
	       "of libums-preload.so.\n";
}

}  // namespace ums_run
