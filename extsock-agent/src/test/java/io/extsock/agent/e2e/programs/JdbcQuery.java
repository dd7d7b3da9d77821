package io.extsock.agent.e2e.programs;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * An ordinary JDBC program that knows nothing of extsock: it runs each statement given and prints
 * the rows of the last one, a line each, columns separated by a blank. The end-to-end tests run
 * it under the agent with a third-party driver (HSQLDB's), whose sockets the agent converts.
 *
 * <p>Usage: {@code JdbcQuery URL USER PASSWORD STATEMENT... QUERY}
 */
public final class JdbcQuery {

    private JdbcQuery() {
    }

    /**
     * @param arguments the JDBC URL, user, password, then the statements, the last a query
     * @throws SQLException whatever the driver throws: the JVM then exits with status 1
     */
    public static void main(String[] arguments) throws SQLException {
        try (Connection connection = DriverManager.getConnection(arguments[0], arguments[1], arguments[2]);
             Statement statement = connection.createStatement()) {
            for (int i = 3; i < arguments.length - 1; i++) {
                statement.execute(arguments[i]);
            }
            try (ResultSet rows = statement.executeQuery(arguments[arguments.length - 1])) {
                int columns = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    StringBuilder line = new StringBuilder();
                    for (int column = 1; column <= columns; column++) {
                        line.append(column > 1 ? " " : "").append(rows.getString(column));
                    }
                    System.out.println(line);
                }
            }
        }
    }
}
