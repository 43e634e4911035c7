package tfb;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import tfb.TfbRules.Fortune;
import tfb.TfbRules.World;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The database side of the tests in blocking JDBC, the same for jasyncio (through toThread) and
 * Helidon (on its request's virtual thread): each call borrows one pooled connection for all of
 * its queries.
 */
final class JdbcWorlds {
    private static final String SELECT_WORLD = "SELECT id, randomNumber FROM World WHERE id = ?";
    private static final String UPDATE_WORLD = "UPDATE World SET randomNumber = ? WHERE id = ?";
    private static final String SELECT_FORTUNES = "SELECT id, message FROM Fortune";

    private final DataSource db;

    JdbcWorlds(DataSource db) {
        this.db = db;
    }

    /** A HikariCP pool of {@code size} connections, all opened at start. */
    static HikariDataSource pool(String url, String user, String password, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        return new HikariDataSource(config);
    }

    /** {@code n} random rows, one query each. */
    World[] random(int n) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement select = c.prepareStatement(SELECT_WORLD)) {
            World[] found = new World[n];
            for (int i = 0; i < n; i++) {
                found[i] = select(select, TfbRules.randomId());
            }
            return found;
        }
    }

    /** Reads {@code n} random rows, gives each a new random number, writes them in one batch (sorted by id: no deadlock between requests). */
    World[] update(int n) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(SELECT_WORLD);
             PreparedStatement update = c.prepareStatement(UPDATE_WORLD)) {
            World[] changed = new World[n];
            for (int i = 0; i < n; i++) {
                changed[i] = new World(select(select, TfbRules.randomId()).id(), TfbRules.randomId());
            }
            World[] byId = changed.clone();
            Arrays.sort(byId, Comparator.comparingInt(World::id));
            for (World w : byId) {
                update.setInt(1, w.randomNumber());
                update.setInt(2, w.id());
                update.addBatch();
            }
            update.executeBatch();
            return changed;
        }
    }

    List<Fortune> fortunes() throws SQLException {
        List<Fortune> all = new ArrayList<>(16);
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(SELECT_FORTUNES);
             ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                all.add(new Fortune(rs.getInt(1), rs.getString(2)));
            }
        }
        return all;
    }

    private static World select(PreparedStatement select, int id) throws SQLException {
        select.setInt(1, id);
        try (ResultSet rs = select.executeQuery()) {
            rs.next();
            return new World(rs.getInt(1), rs.getInt(2));
        }
    }
}
