/*
 * The completion-model reference of the comparison: a plain C echo server on io_uring (liburing),
 * one thread. One multishot accept on the listener; per connection one receive into its own
 * 256 KiB buffer, then one send of what came (sent again from where it stopped until all is out),
 * then the next receive: so a connection never buffers without bound. One
 * io_uring_submit_and_wait per iteration submits every request queued since the last one and
 * waits for a completion; then every completion posted is handled. The ring runs task work only
 * in that wait (IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN, Linux 6.1+; cooperative task work
 * where the kernel refuses them). Prints "listening on HOST:PORT" once bound, runs until killed.
 * Usage: c_io_uring_echo --host 127.0.0.1 --port P
 * Build: gcc -O2 -o c_io_uring_echo c_io_uring_echo.c -luring (Debian: liburing-dev)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "echo_listener.h"

#define BUF_SIZE (256 * 1024)
#define RING_ENTRIES 4096

enum kind { ACCEPT = 1, RECV = 2, SEND = 3 };

struct conn {
    int fd;
    size_t sent;    /* bytes of buf already sent */
    size_t length;  /* bytes of buf to send in total */
    char buf[BUF_SIZE];
};

/* The user data: the connection's address with the request's kind in its low bits (aligned). */
static uint64_t tag(struct conn *c, enum kind k) { return (uint64_t) (uintptr_t) c | (uint64_t) k; }
static struct conn *conn_of(uint64_t data) { return (struct conn *) (uintptr_t) (data & ~(uint64_t) 7); }
static enum kind kind_of(uint64_t data) { return (enum kind) (data & 7); }

static void die(const char *what, int err) {
    fprintf(stderr, "%s: %s\n", what, strerror(err));
    exit(1);
}

/* A submission entry; when the queue is full, what is queued is submitted first to make room. */
static struct io_uring_sqe *sqe_of(struct io_uring *ring) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    while (sqe == NULL) {
        int r = io_uring_submit(ring);
        if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY) die("io_uring_submit", -r);
        sqe = io_uring_get_sqe(ring);
    }
    return sqe;
}

static void arm_accept(struct io_uring *ring, int lfd) {
    struct io_uring_sqe *sqe = sqe_of(ring);
    io_uring_prep_multishot_accept(sqe, lfd, NULL, NULL, 0);
    io_uring_sqe_set_data64(sqe, ACCEPT);
}

static void arm_recv(struct io_uring *ring, struct conn *c) {
    struct io_uring_sqe *sqe = sqe_of(ring);
    io_uring_prep_recv(sqe, c->fd, c->buf, BUF_SIZE, 0);
    io_uring_sqe_set_data64(sqe, tag(c, RECV));
}

static void arm_send(struct io_uring *ring, struct conn *c) {
    struct io_uring_sqe *sqe = sqe_of(ring);
    io_uring_prep_send(sqe, c->fd, c->buf + c->sent, c->length - c->sent, MSG_NOSIGNAL);
    io_uring_sqe_set_data64(sqe, tag(c, SEND));
}

static void drop(struct conn *c) {
    close(c->fd);
    free(c);
}

static void on_accepted(struct io_uring *ring, int lfd, int res, unsigned flags) {
    if (!(flags & IORING_CQE_F_MORE)) arm_accept(ring, lfd);   /* the multishot accept ended: ask again */
    if (res < 0) return;                                       /* EMFILE and the like: drop this one */
    int one = 1;
    setsockopt(res, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct conn *c = aligned_alloc(8, sizeof *c);
    if (c == NULL) { close(res); return; }
    c->fd = res;
    c->sent = c->length = 0;
    arm_recv(ring, c);
}

static void on_received(struct io_uring *ring, struct conn *c, int res) {
    if (res <= 0) { drop(c); return; }   /* the end of the stream, or an error */
    c->sent = 0;
    c->length = (size_t) res;
    arm_send(ring, c);
}

static void on_sent(struct io_uring *ring, struct conn *c, int res) {
    if (res < 0) { drop(c); return; }
    c->sent += (size_t) res;
    if (c->sent < c->length) arm_send(ring, c);
    else arm_recv(ring, c);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int lfd = echo_listener(argc, argv, 0);

    struct io_uring ring;
    struct io_uring_params params = {.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN};
    int r = io_uring_queue_init_params(RING_ENTRIES, &ring, &params);
    if (r == -EINVAL) {
        memset(&params, 0, sizeof params);
        params.flags = IORING_SETUP_COOP_TASKRUN;
        r = io_uring_queue_init_params(RING_ENTRIES, &ring, &params);
    }
    if (r < 0) die("io_uring_queue_init_params", -r);

    arm_accept(&ring, lfd);
    for (;;) {
        r = io_uring_submit_and_wait(&ring, 1);
        if (r < 0 && r != -EINTR && r != -ETIME && r != -EAGAIN && r != -EBUSY) die("io_uring_submit_and_wait", -r);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(&ring, head, cqe) {
            seen++;
            uint64_t data = io_uring_cqe_get_data64(cqe);
            switch (kind_of(data)) {
                case ACCEPT: on_accepted(&ring, lfd, cqe->res, cqe->flags); break;
                case RECV: on_received(&ring, conn_of(data), cqe->res); break;
                case SEND: on_sent(&ring, conn_of(data), cqe->res); break;
            }
        }
        io_uring_cq_advance(&ring, seen);
    }
}
