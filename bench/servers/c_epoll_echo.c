/*
 * The floor of the comparison: a plain C echo server, one thread, level-triggered epoll,
 * non-blocking sockets, one 256 KiB buffer per connection (so a 100 KiB message is not cut into
 * more reads than the socket delivers it in). When a write is partial it stops reading that
 * connection until the rest is out (so it never buffers without bound).
 * Prints "listening on HOST:PORT" once bound, runs until killed.
 * Usage: c_epoll_echo --host 127.0.0.1 --port P
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "echo_listener.h"

#define BUF_SIZE (256 * 1024)
#define MAX_EVENTS 256

struct conn {
    int fd;
    size_t pending_off;   /* bytes of buf already written */
    size_t pending_len;   /* bytes of buf to write in total; 0 = reading */
    char buf[BUF_SIZE];
};

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void drop(int ep, struct conn *c) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c);
}

static void set_interest(int ep, struct conn *c, unsigned events) {
    struct epoll_event ev = {.events = events, .data.ptr = c};
    if (epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev) < 0) die("epoll_ctl mod");
}

/* Writes what is pending; returns 0 when all is out, 1 when the socket is full, -1 on error. */
static int flush_pending(struct conn *c) {
    while (c->pending_off < c->pending_len) {
        ssize_t n = write(c->fd, c->buf + c->pending_off, c->pending_len - c->pending_off);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 1;
            if (errno == EINTR) continue;
            return -1;
        }
        c->pending_off += (size_t) n;
    }
    c->pending_off = c->pending_len = 0;
    return 0;
}

static void on_readable(int ep, struct conn *c) {
    for (;;) {
        ssize_t n = read(c->fd, c->buf, BUF_SIZE);
        if (n == 0) { drop(ep, c); return; }
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            if (errno == EINTR) continue;
            drop(ep, c);
            return;
        }
        c->pending_len = (size_t) n;
        int r = flush_pending(c);
        if (r < 0) { drop(ep, c); return; }
        if (r > 0) { set_interest(ep, c, EPOLLOUT); return; }
        if ((size_t) n < BUF_SIZE) return;   /* drained the socket for now */
    }
}

static void on_writable(int ep, struct conn *c) {
    int r = flush_pending(c);
    if (r < 0) { drop(ep, c); return; }
    if (r == 0) set_interest(ep, c, EPOLLIN);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);   /* a peer that hung up is an EPIPE on that connection, not our death */
    int lfd = echo_listener(argc, argv, SOCK_NONBLOCK);
    int one = 1;

    int ep = epoll_create1(0);
    if (ep < 0) die("epoll_create1");
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};   /* NULL marks the listener */
    if (epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &lev) < 0) die("epoll_ctl add listener");

    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int n = epoll_wait(ep, events, MAX_EVENTS, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait");
        }
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            if (c == NULL) {
                int fd;
                while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct conn *nc = malloc(sizeof *nc);
                    if (nc == NULL) { close(fd); continue; }
                    nc->fd = fd;
                    nc->pending_off = nc->pending_len = 0;
                    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = nc};
                    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) { close(fd); free(nc); }
                }
                continue;
            }
            if (events[i].events & (EPOLLERR | EPOLLHUP) && !(events[i].events & EPOLLIN)) {
                drop(ep, c);
            } else if (c->pending_len > 0) {
                on_writable(ep, c);
            } else {
                on_readable(ep, c);
            }
        }
    }
}
