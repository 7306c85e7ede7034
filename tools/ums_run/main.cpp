// SPDX-License-Identifier: MIT
// ums_run: runs a command with libums-preload.so in LD_PRELOAD.
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

#include "cli.h"

#ifndef AF_SMC
#define AF_SMC 43
#endif

namespace {

// The library: $UMS_PRELOAD_LIB, else the one beside this program (a build
// tree), else the installed one.
std::string preload_library()
{
	const char *env = getenv("UMS_PRELOAD_LIB");
	if (env && *env)
		return env;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		std::string dir(self, static_cast<size_t>(n));
		dir.resize(dir.rfind('/') + 1);
		std::string lib = dir + "libums-preload.so";
		if (access(lib.c_str(), R_OK) == 0)
			return lib;
	}
	return UMS_PRELOAD_INSTALLED;
}

}  // namespace

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	ums_run::Options opts;
	std::string error;

	if (!ums_run::parse(args, &opts, &error)) {
		std::cerr << "ums_run: " << error << "\n" << ums_run::usage();
		return 1;
	}
	if (opts.help) {
		std::cout << ums_run::usage();
		return 0;
	}
	std::string lib = preload_library();
	if (access(lib.c_str(), R_OK) != 0) {
		std::cerr << "ums_run: Error: " << lib << ": " << strerror(errno)
			  << "\n";
		return 1;
	}
	// Without ums.ko every socket the command makes would fail.
	int fd = socket(AF_SMC, SOCK_STREAM, 0);
	if (fd < 0) {
		std::cerr << "ums_run: Error: UMS is not available (AF_SMC: "
			  << strerror(errno) << "); load ums.ko (modprobe ums)\n";
		return 1;
	}
	close(fd);

	const char *old = getenv("LD_PRELOAD");
	std::string preload = old && *old ? std::string(old) + ":" + lib : lib;
	if (setenv("LD_PRELOAD", preload.c_str(), 1) != 0 ||
	    (opts.debug && setenv("UMS_DEBUG", "1", 1) != 0)) {
		std::cerr << "ums_run: Error: setenv: " << strerror(errno) << "\n";
		return 1;
	}
	if (opts.debug)
		std::cerr << "LD_PRELOAD=" << preload << "\n";
	std::vector<char *> cargv;
	for (auto &a : opts.command)
		cargv.push_back(a.data());
	cargv.push_back(nullptr);
	execvp(cargv[0], cargv.data());
	std::cerr << "ums_run: Error: " << opts.command[0] << ": "
		  << strerror(errno) << "\n";
	return 127;
}
