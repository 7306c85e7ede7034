// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// Shared by the integration suites (tests/integration) and the fuzzers
// (tests/fuzz): sysfs numbers, and the live object counts ubcore shows
// under /sys/class/ubcore/<dev>/objects/. No GoogleTest, no liburma.
#pragma once

#include <dirent.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdio>
#include <string>

namespace ub_test {

// The number in a sysfs file; -1 when it is missing or holds none.
inline long sysfs_long(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "r");
    long v = -1;
    if (f == nullptr)
        return -1;
    if (std::fscanf(f, "%ld", &v) != 1)
        v = -1;
    std::fclose(f);
    return v;
}

// Writes val to a sysfs (or debugfs) file, as echo does; false on any error.
inline bool write_sysfs(const std::string &path, const std::string &val)
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (f == nullptr)
        return false;
    bool ok = std::fputs(val.c_str(), f) >= 0;
    return std::fclose(f) == 0 && ok;
}

// The object counts of a device, in this order.
inline const char *const kObjKinds[] = {"ucontext", "jfc",        "jfs",  "jfr",    "jetty",       "token_id",
                                        "seg",      "target_seg", "tjfr", "tjetty", "pinned_pages", "jetty_grp"};
constexpr size_t kNumObjKinds = sizeof(kObjKinds) / sizeof(kObjKinds[0]);
using ObjCounts = std::array<long, kNumObjKinds>;

// Live objects of a kind on a device (/sys/class/ubcore/<dev>/objects/<obj>,
// the ubcore counts); -1 when the file is missing.
inline long obj_count(const std::string &obj, const std::string &dev = "udma0")
{
    return sysfs_long("/sys/class/ubcore/" + dev + "/objects/" + obj);
}

// Every count of kObjKinds on dev.
inline ObjCounts obj_counts(const std::string &dev = "udma0")
{
    ObjCounts c;
    for (size_t i = 0; i < kNumObjKinds; i++)
        c[i] = obj_count(kObjKinds[i], dev);
    return c;
}

// "ucontext=1 jfc=0 ...", for failure messages.
inline std::string counts_str(const ObjCounts &c)
{
    std::string s;
    for (size_t i = 0; i < kNumObjKinds; i++)
        s += std::string(kObjKinds[i]) + "=" + std::to_string(c[i]) + " ";
    return s;
}

inline std::string counts(const std::string &dev = "udma0") { return counts_str(obj_counts(dev)); }

// Objects of every UB device: the sum of each file of
// /sys/class/ubcore/*/objects/ (pinned_pages included), and one line
// naming the non-zero ones.
inline long total_objects(std::string *detail = nullptr)
{
    const char *cls = "/sys/class/ubcore";
    long total = 0;
    DIR *d = opendir(cls);
    if (d == nullptr)
        return 0;  // no ubcore: no objects
    while (struct dirent *de = readdir(d)) {
        if (de->d_name[0] == '.')
            continue;
        std::string objdir = std::string(cls) + "/" + de->d_name + "/objects";
        DIR *o = opendir(objdir.c_str());
        if (o == nullptr)
            continue;
        while (struct dirent *oe = readdir(o)) {
            if (oe->d_name[0] == '.')
                continue;
            long v = sysfs_long(objdir + "/" + oe->d_name);
            if (v < 0)
                v = 1;  // unreadable: never "zero"
            total += v;
            if (v != 0 && detail != nullptr)
                *detail += std::string(de->d_name) + "/" + oe->d_name + "=" + std::to_string(v) + " ";
        }
        closedir(o);
    }
    closedir(d);
    return total;
}

// Waits up to timeout_ms for every object count of every device to be 0;
// on a timeout *detail names the counts left.
inline bool wait_objects_zero(int timeout_ms, std::string *detail)
{
    for (int waited = 0;; waited += 50) {
        std::string d;
        if (total_objects(&d) == 0)
            return true;
        if (waited >= timeout_ms) {
            if (detail != nullptr)
                *detail = d;
            return false;
        }
        usleep(50 * 1000);
    }
}

}  // namespace ub_test
