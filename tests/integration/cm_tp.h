// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Helpers of the connection manager's suites (urma_cm_itest, one
// namespace; urma_nspair_itest, two): a device's TP table as ubcore shows
// it in sysfs (cm/tp), EIDs as text, and the urma_admin binary's output.
#pragma once

#include <arpa/inet.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "urma_api.h"

namespace ub_itest {

// One line of /sys/class/ubcore/<dev>/cm/tp: "tpn peer_eid peer_tpn mode
// state... users age_ms" (the state's name may have spaces).
struct TpRow {
    uint32_t tpn = 0;
    std::string peer;
    uint32_t peer_tpn = 0;
    std::string mode, state;
    uint32_t users = 0;
};

// The whitespace-separated cells of each line of a table.
inline std::vector<std::vector<std::string>> cells(const std::string &table)
{
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(table);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream in(line);
        std::vector<std::string> v;
        std::string c;
        while (in >> c)
            v.push_back(c);
        if (!v.empty())
            rows.push_back(v);
    }
    return rows;
}

// The rows of a cm/tp file's text.
inline std::vector<TpRow> parse_tp_table(const std::string &text)
{
    std::vector<TpRow> rows;
    for (const auto &w : cells(text)) {
        if (w.size() < 7)
            continue;
        TpRow r;
        r.tpn = std::stoul(w[0]);
        r.peer = w[1];
        r.peer_tpn = std::stoul(w[2]);
        r.mode = w[3];
        for (size_t i = 4; i + 2 < w.size(); i++)
            r.state += (r.state.empty() ? "" : " ") + w[i];
        r.users = std::stoul(w[w.size() - 2]);
        rows.push_back(r);
    }
    return rows;
}

// dev's TP table, as this process's /sys (its network namespace's) shows it.
inline std::vector<TpRow> tp_table(const std::string &dev = "udma0")
{
    std::ifstream f("/sys/class/ubcore/" + dev + "/cm/tp");
    std::stringstream text;
    text << f.rdbuf();
    return parse_tp_table(text.str());
}

inline const TpRow *find_tp(const std::vector<TpRow> &rows, uint32_t tpn)
{
    for (const auto &r : rows)
        if (r.tpn == tpn)
            return &r;
    return nullptr;
}

inline std::string describe(const std::vector<TpRow> &rows)
{
    std::string s;
    for (const auto &r : rows)
        s += std::to_string(r.tpn) + " " + r.peer + " " + std::to_string(r.peer_tpn) + " " + r.mode + " [" +
             r.state + "] " + std::to_string(r.users) + "\n";
    return s.empty() ? "(no TP)\n" : s;
}

inline std::string eid_string(const urma_eid_t &eid)
{
    char buf[INET6_ADDRSTRLEN];
    return inet_ntop(AF_INET6, eid.raw, buf, sizeof(buf)) ? buf : "?";
}

// The stdout and exit code of the program at path with args (fork/exec;
// -1 if it did not exit). in_child, when given, runs in the child before
// the exec (entering a namespace); the child exits with 126 if it fails.
inline int run_capture(const std::string &path, const std::vector<std::string> &args, std::string *out,
                       const std::function<bool()> &in_child = nullptr)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], STDOUT_FILENO);
        close(pipefd[0]);
        if (in_child && !in_child())
            _exit(126);
        std::vector<char *> argv{const_cast<char *>(path.c_str())};
        for (const auto &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        execv(path.c_str(), argv.data());
        _exit(127);
    }
    close(pipefd[1]);
    char buf[4096];
    ssize_t n;
    out->clear();
    while ((n = read(pipefd[0], buf, sizeof(buf))) > 0)
        out->append(buf, static_cast<size_t>(n));
    close(pipefd[0]);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

// The jetty id imported into ctx in mode with a plain-text token; NULL
// with errno when the import fails.
inline urma_target_jetty_t *import_jetty(urma_context_t *ctx, const urma_jetty_id_t &id, urma_transport_mode_t mode,
                                         uint32_t token)
{
    urma_rjetty_t r = {};
    r.jetty_id = id;
    r.trans_mode = mode;
    r.type = URMA_JETTY;
    r.flag.bs.token_policy = URMA_TOKEN_PLAIN_TEXT;
    urma_token_t t = {token};
    errno = 0;
    return urma_import_jetty(ctx, &r, &t);
}

#ifdef URMA_ADMIN_PATH
// urma_admin's stdout and exit code (the built tool).
inline int admin(const std::vector<std::string> &args, std::string *out,
                 const std::function<bool()> &in_child = nullptr)
{
    return run_capture(URMA_ADMIN_PATH, args, out, in_child);
}
#endif

}  // namespace ub_itest
