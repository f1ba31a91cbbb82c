#include "CNetlink.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int brick_nl_monitor_open(void) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) return -errno;
    struct sockaddr_nl local;
    memset(&local, 0, sizeof local);
    local.nl_family = AF_NETLINK;
    local.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;
    if (bind(fd, (struct sockaddr *)&local, sizeof local) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

int brick_nl_monitor_drain(int fd) {
    char buffer[16384] __attribute__((aligned(4)));
    int relevant = 0;
    for (;;) {
        ssize_t length = recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (length < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return relevant;
            if (errno == ENOBUFS) { relevant += 1; continue; }  // messages were lost: re-evaluate anyway
            return -errno;
        }
        if (length == 0) return relevant;
        relevant += brick_nl_count_changes(buffer, (size_t)length);
    }
}

int brick_interface_flags(int interface_index, unsigned int *flags) {
    struct ifreq request;
    memset(&request, 0, sizeof request);
    if (if_indextoname((unsigned int)interface_index, request.ifr_name) == NULL) return -errno;
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    int result = ioctl(fd, SIOCGIFFLAGS, &request);
    int error = errno;
    close(fd);
    if (result < 0) return -error;
    *flags = (unsigned short)request.ifr_flags;
    return 0;
}

int brick_nl_route_get(int family, const unsigned char *address, brick_route *route) {
    size_t address_length = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
    if (address_length == 0) return -EAFNOSUPPORT;
    memset(route, 0, sizeof *route);

    struct {
        struct nlmsghdr header;
        struct rtmsg message;
        char attributes[64];
    } request;
    memset(&request, 0, sizeof request);
    request.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
    request.header.nlmsg_type = RTM_GETROUTE;
    request.header.nlmsg_flags = NLM_F_REQUEST;
    request.header.nlmsg_seq = 1;
    request.message.rtm_family = (unsigned char)family;
    request.message.rtm_dst_len = (unsigned char)(address_length * 8);
    struct rtattr *destination = (struct rtattr *)((char *)&request + NLMSG_ALIGN(request.header.nlmsg_len));
    destination->rta_type = RTA_DST;
    destination->rta_len = (unsigned short)RTA_LENGTH(address_length);
    memcpy(RTA_DATA(destination), address, address_length);
    request.header.nlmsg_len = NLMSG_ALIGN(request.header.nlmsg_len) + RTA_ALIGN(destination->rta_len);

    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) return -errno;
    struct sockaddr_nl kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.nl_family = AF_NETLINK;
    if (sendto(fd, &request, request.header.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    char buffer[8192] __attribute__((aligned(4)));
    ssize_t length;
    do { length = recv(fd, buffer, sizeof buffer, 0); } while (length < 0 && errno == EINTR);
    int error = errno;
    close(fd);
    if (length < 0) return -error;

    int result = brick_nl_parse_route(buffer, (size_t)length, route);
    if (result == 0 && route->interface_index > 0) brick_interface_flags(route->interface_index, &route->interface_flags);
    return result;
}

int brick_nl_count_changes(const void *buffer, size_t length) {
    int relevant = 0;
    int remaining = length > 65536 ? 65536 : (int)length;
    for (const struct nlmsghdr *message = buffer; NLMSG_OK(message, remaining);
         message = NLMSG_NEXT(message, remaining)) {
        switch (message->nlmsg_type) {
        case RTM_NEWLINK: case RTM_DELLINK:
        case RTM_NEWADDR: case RTM_DELADDR:
        case RTM_NEWROUTE: case RTM_DELROUTE:
            relevant += 1;
            break;
        default:
            break;
        }
    }
    return relevant;
}

int brick_nl_parse_route(const void *buffer, size_t length, brick_route *route) {
    memset(route, 0, sizeof *route);
    int remaining = length > 65536 ? 65536 : (int)length;
    for (const struct nlmsghdr *message = buffer; NLMSG_OK(message, remaining);
         message = NLMSG_NEXT(message, remaining)) {
        if (message->nlmsg_type == NLMSG_ERROR) {
            // The error code is read only when the message is long enough to hold it.
            if (message->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr))) return -EPROTO;
            const struct nlmsgerr *failure = NLMSG_DATA(message);
            return failure->error < 0 ? failure->error : -EPROTO;
        }
        if (message->nlmsg_type != RTM_NEWROUTE || message->nlmsg_len < NLMSG_LENGTH(sizeof(struct rtmsg))) continue;
        const struct rtmsg *found = NLMSG_DATA(message);
        route->route_type = found->rtm_type;
        route->route_flags = found->rtm_flags;
        int attributes_length = (int)RTM_PAYLOAD(message);
        for (const struct rtattr *attribute = RTM_RTA(found); RTA_OK(attribute, attributes_length);
             attribute = RTA_NEXT(attribute, attributes_length)) {
            if (attribute->rta_type == RTA_OIF && RTA_PAYLOAD(attribute) >= sizeof(int)) {
                memcpy(&route->interface_index, RTA_DATA(attribute), sizeof(int));
            }
        }
        return 0;
    }
    return -EPROTO;
}
