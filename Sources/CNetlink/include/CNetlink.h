// rtnetlink for the reachability monitor: Glibc's Swift module has no linux/rtnetlink.h, and the NLMSG_*
// macros are function-like, so the message parsing lives here. No policy: each call reports what the
// kernel said.
#ifndef BRICK_NETLINK_H
#define BRICK_NETLINK_H

#include <stddef.h>

#pragma clang assume_nonnull begin

/// Opens a non-blocking rtnetlink socket subscribed to link, address and route changes (IPv4 and IPv6).
/// Returns the descriptor, or -errno.
int brick_nl_monitor_open(void);

/// Reads every message waiting on a monitor socket without blocking.
/// Returns how many link, address or route messages were read (a lost-messages overrun counts as one),
/// or -errno when the socket failed.
int brick_nl_monitor_drain(int fd);

/// What the kernel's route lookup says about one destination address.
typedef struct {
    /// The egress interface's index (0 when none).
    int interface_index;
    /// The egress interface's flags (IFF_UP, IFF_RUNNING ...), 0 when unknown.
    unsigned int interface_flags;
    /// The route's type (RTN_UNICAST, RTN_LOCAL, RTN_UNREACHABLE ...).
    unsigned char route_type;
    /// The route's flags (RTNH_F_LINKDOWN ...).
    unsigned int route_flags;
} brick_route;

/// Asks the kernel for the route to `address` (4 bytes for AF_INET, 16 for AF_INET6), as `ip route get`
/// does; nothing is sent on the network. Returns 0 and fills `route`, or -errno (-ENETUNREACH when there is
/// no route).
int brick_nl_route_get(int family, const unsigned char *address, brick_route *route);

/// Counts the link, address and route change messages in `length` bytes of netlink messages (what the
/// monitor socket delivered). Stops at the first malformed message; never reads past `length`.
int brick_nl_count_changes(const void *buffer, size_t length);

/// Parses the kernel's answer to a route request (`length` bytes): fills `route` (without the interface
/// flags) and returns 0, or the kernel's -errno, or -EPROTO for an answer without a route. Never reads
/// past `length`, and reads a message's payload only when the message is long enough to hold it.
int brick_nl_parse_route(const void *buffer, size_t length, brick_route *route);

/// Puts the IFF_* flags of interface `interface_index` into `flags`; returns 0, or -errno.
int brick_interface_flags(int interface_index, unsigned int *flags);

#pragma clang assume_nonnull end

#endif
