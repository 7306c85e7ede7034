// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
#include "json.h"

#include <cstdlib>
#include <cstring>

namespace perftest {

namespace {

class Reader {
public:
    explicit Reader(const std::string &t) : s_(t) {}

    bool document(JsonValue *v)
    {
        if (!value(v, 0))
            return false;
        skip();
        return pos_ == s_.size() || fail("trailing characters");
    }
    std::string error() const { return err_ + " at offset " + std::to_string(pos_); }

private:
    static constexpr int kMaxDepth = 64;

    bool fail(const char *why)
    {
        if (err_.empty())
            err_ = why;
        return false;
    }
    void skip()
    {
        while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_]) != nullptr)
            pos_++;
    }
    bool literal(const char *word)
    {
        size_t n = std::strlen(word);
        if (s_.compare(pos_, n, word) != 0)
            return fail("bad literal");
        pos_ += n;
        return true;
    }
    bool value(JsonValue *v, int depth)
    {
        if (depth > kMaxDepth)
            return fail("nested too deeply");
        skip();
        if (pos_ >= s_.size())
            return fail("unexpected end");
        char c = s_[pos_];
        if (c == '{')
            return object(v, depth);
        if (c == '[')
            return array(v, depth);
        if (c == '"') {
            v->type = JsonValue::Type::String;
            return string(&v->str);
        }
        if (c == 't' || c == 'f') {
            v->type = JsonValue::Type::Bool;
            v->b = c == 't';
            return literal(c == 't' ? "true" : "false");
        }
        if (c == 'n') {
            v->type = JsonValue::Type::Null;
            return literal("null");
        }
        return number(v);
    }
    bool number(JsonValue *v)
    {
        const char *start = s_.c_str() + pos_;
        if (*start != '-' && (*start < '0' || *start > '9'))
            return fail("unexpected character");
        char *end = nullptr;
        v->num = std::strtod(start, &end);
        if (end == start)
            return fail("bad number");
        v->type = JsonValue::Type::Number;
        pos_ += static_cast<size_t>(end - start);
        return true;
    }
    bool string(std::string *out)
    {
        pos_++;  // the opening quote
        out->clear();
        while (pos_ < s_.size()) {
            char c = s_[pos_++];
            if (c == '"')
                return true;
            if (c != '\\') {
                out->push_back(c);
                continue;
            }
            if (pos_ >= s_.size())
                break;
            char e = s_[pos_++];
            const char *from = "\"\\/nt", *to = "\"\\/\n\t";
            const char *p = std::strchr(from, e);
            if (p == nullptr || e == '\0')
                return fail("unsupported escape");
            out->push_back(to[p - from]);
        }
        return fail("unterminated string");
    }
    bool array(JsonValue *v, int depth)
    {
        v->type = JsonValue::Type::Array;
        pos_++;
        skip();
        if (pos_ < s_.size() && s_[pos_] == ']') {
            pos_++;
            return true;
        }
        for (;;) {
            v->arr.emplace_back();
            if (!value(&v->arr.back(), depth + 1))
                return false;
            skip();
            if (pos_ >= s_.size())
                return fail("unterminated array");
            char c = s_[pos_++];
            if (c == ']')
                return true;
            if (c != ',')
                return fail("expected , or ]");
        }
    }
    bool object(JsonValue *v, int depth)
    {
        v->type = JsonValue::Type::Object;
        pos_++;
        skip();
        if (pos_ < s_.size() && s_[pos_] == '}') {
            pos_++;
            return true;
        }
        for (;;) {
            skip();
            if (pos_ >= s_.size() || s_[pos_] != '"')
                return fail("expected a key");
            std::string key;
            if (!string(&key))
                return false;
            skip();
            if (pos_ >= s_.size() || s_[pos_++] != ':')
                return fail("expected :");
            v->obj.emplace_back(key, JsonValue());
            if (!value(&v->obj.back().second, depth + 1))
                return false;
            skip();
            if (pos_ >= s_.size())
                return fail("unterminated object");
            char c = s_[pos_++];
            if (c == '}')
                return true;
            if (c != ',')
                return fail("expected , or }");
        }
    }

    const std::string &s_;
    size_t pos_ = 0;
    std::string err_;
};

}  // namespace

const JsonValue *JsonValue::get(const std::string &key) const
{
    for (const auto &kv : obj)
        if (kv.first == key)
            return &kv.second;
    return nullptr;
}

bool json_parse(const std::string &text, JsonValue *out, std::string *err)
{
    *out = JsonValue();
    Reader r(text);
    if (r.document(out))
        return true;
    if (err != nullptr)
        *err = r.error();
    return false;
}

}  // namespace perftest
