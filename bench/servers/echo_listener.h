/*
 * What the C echo servers share: their command line (--host H --port P) and their listening
 * socket, bound, listening, and announced as "listening on HOST:PORT" (what bench/servers/lib.sh
 * waits for). Exits on any failure.
 */
#ifndef ECHO_LISTENER_H
#define ECHO_LISTENER_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* A listening IPv4 socket on the --host and --port of argv; extra_type: e.g. SOCK_NONBLOCK. */
static int echo_listener(int argc, char **argv, int extra_type) {
    const char *host = "127.0.0.1";
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--host") == 0) host = argv[i + 1];
        else if (strcmp(argv[i], "--port") == 0) port = atoi(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); exit(2); }
    }
    int lfd = socket(AF_INET, SOCK_STREAM | extra_type, 0);
    if (lfd < 0) { perror("socket"); exit(1); }
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) { fprintf(stderr, "bad IPv4 host %s\n", host); exit(2); }
    if (bind(lfd, (struct sockaddr *) &addr, sizeof addr) < 0) { perror("bind"); exit(1); }
    if (listen(lfd, 1024) < 0) { perror("listen"); exit(1); }
    socklen_t len = sizeof addr;
    getsockname(lfd, (struct sockaddr *) &addr, &len);
    char shown[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &addr.sin_addr, shown, sizeof shown);
    printf("listening on %s:%d\n", shown, ntohs(addr.sin_port));
    fflush(stdout);
    return lfd;
}

#endif
