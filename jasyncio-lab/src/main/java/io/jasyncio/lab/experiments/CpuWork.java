package io.jasyncio.lab.experiments;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** CPU-bound work that cannot be optimised away: repeated SHA-256 over its own output. */
final class CpuWork {
    private CpuWork() {
    }

    /** Hashes for {@code seconds} of wall time (a stand-in for a 200 ms signature verify). */
    static byte[] hashFor(double seconds) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        MessageDigest sha = sha256();
        byte[] digest = new byte[32];
        do {
            for (int i = 0; i < 64; i++) {
                digest = sha.digest(digest);
            }
        } while (System.nanoTime() < deadline);
        return digest;
    }

    /** Exactly {@code rounds} SHA-256 computations: a fixed amount of handler work. */
    static byte[] hashRounds(int rounds) {
        MessageDigest sha = sha256();
        byte[] digest = new byte[32];
        for (int i = 0; i < rounds; i++) {
            digest = sha.digest(digest);
        }
        return digest;
    }

    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            s.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        return s.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
