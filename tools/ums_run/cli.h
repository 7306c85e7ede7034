// SPDX-License-Identifier: MIT
// The command line of ums_run: "ums_run [-d] [--help] COMMAND [ARGS...]".
#pragma once

#include <string>
#include <vector>

namespace ums_run {

struct Options {
	bool help = false;
	bool debug = false;		// -d: the library says what it maps
	std::vector<std::string> command;
};

// Parses argv[1..]; options end at the first word that is not one (or at
// "--"). On a mistake, returns false with the message in *error, in the
// UMS User Guide's words ("Error: ...").
bool parse(const std::vector<std::string> &args, Options *opts,
	   std::string *error);

std::string usage();

}  // namespace ums_run
