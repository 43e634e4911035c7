package io.jasyncio.examples.db;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The service's queries, in plain blocking JDBC: each borrows a connection from the pool and
 * returns it. Call them through the valve ({@code toThread}), never on the loop.
 */
final class WorldRepository {
    record World(int id, int randomNumber) {
    }

    record Fortune(int id, String message) {
    }

    private final DataSource pool;

    WorldRepository(DataSource pool) {
        this.pool = pool;
    }

    Optional<World> find(int id) throws SQLException {
        try (Connection c = pool.getConnection();
             PreparedStatement select = c.prepareStatement("SELECT id, randomNumber FROM World WHERE id = ?")) {
            select.setInt(1, id);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(new World(rs.getInt(1), rs.getInt(2))) : Optional.empty();
            }
        }
    }

    /** Sets the row's number; empty when there is no such row. */
    Optional<World> update(int id, int randomNumber) throws SQLException {
        try (Connection c = pool.getConnection();
             PreparedStatement update = c.prepareStatement("UPDATE World SET randomNumber = ? WHERE id = ?")) {
            update.setInt(1, randomNumber);
            update.setInt(2, id);
            return update.executeUpdate() == 1 ? Optional.of(new World(id, randomNumber)) : Optional.empty();
        }
    }

    /** Every fortune, sorted by message. */
    List<Fortune> fortunes() throws SQLException {
        List<Fortune> all = new ArrayList<>();
        try (Connection c = pool.getConnection();
             PreparedStatement select = c.prepareStatement("SELECT id, message FROM Fortune");
             ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                all.add(new Fortune(rs.getInt(1), rs.getString(2)));
            }
        }
        all.sort(Comparator.comparing(Fortune::message));
        return all;
    }

    /** A slow report: how many rows hold each number's parity, after {@code seconds} of server-side work. */
    long[] parityReport(double seconds) throws SQLException {
        try (Connection c = pool.getConnection();
             PreparedStatement select = c.prepareStatement(
                     "SELECT count(*) FILTER (WHERE randomNumber % 2 = 0), count(*) FILTER (WHERE randomNumber % 2 = 1)"
                             + " FROM World, pg_sleep(?)")) {
            select.setDouble(1, seconds);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }
}
