// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// A small JSON reader for what urma_perftest prints (objects, arrays,
// numbers, strings without escapes beyond \" \\ \/ \n \t, true, false,
// null): the tests read the tool's --json output back with it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace perftest {

struct JsonValue {
    enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
    bool b = false;
    double num = 0;
    std::string str;
    std::vector<JsonValue> arr;
    std::vector<std::pair<std::string, JsonValue>> obj;

    // The member key of an object, or nullptr.
    const JsonValue *get(const std::string &key) const;
};

// Parses all of text (surrounding white space allowed); false with a reason
// in *err on any error.
bool json_parse(const std::string &text, JsonValue *out, std::string *err);

}  // namespace perftest
