package ilion.example;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * A small Java client for ilion: write three columns of a user's row, read them back.
 *
 * <pre>java ilion.example.Example [HOST [PORT]] [--framed]</pre>
 *
 * Uses Keyspace1/Standard1 (BytesType names) of the sample config.
 */
public final class Example {
    public static void main(String[] args) throws Exception {
        List<String> positional = new java.util.ArrayList<>();
        boolean framed = false;
        for (String a : args) {
            if (a.equals("--framed")) {
                framed = true;
            } else {
                positional.add(a);
            }
        }
        String host = positional.size() > 0 ? positional.get(0) : "localhost";
        int port = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 9160;

        // A plain TSocket is the buffered transport; framing wraps it.
        TTransport transport = new TSocket(host, port, 10_000);
        if (framed) {
            transport = new TFramedTransport(transport);
        }
        try (TTransport t = transport) {
            t.open();
            Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(t));
            System.out.println("Connected to " + client.describe_cluster_name() + " (API " + client.describe_version() + ")");

            long timestamp = System.currentTimeMillis() * 1000; // microseconds, by convention
            String[][] profile = {{"name", "Jane Smith"}, {"email", "jsmith@example.com"}, {"city", "Oslo"}};
            for (String[] field : profile) {
                ColumnPath path = new ColumnPath("Standard1").setColumn(utf8(field[0]));
                client.insert("Keyspace1", "jsmith", path, utf8(field[1]), timestamp, ConsistencyLevel.ONE);
            }

            SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 100));
            for (ColumnOrSuperColumn c : client.get_slice("Keyspace1", "jsmith", new ColumnParent("Standard1"), all, ConsistencyLevel.ONE)) {
                Column column = c.getColumn();
                System.out.println("  " + text(column.getName()) + " = " + text(column.getValue()));
            }

            try {
                client.get("Keyspace1", "jsmith", new ColumnPath("Standard1").setColumn(utf8("phone")), ConsistencyLevel.ONE);
            } catch (NotFoundException e) {
                System.out.println("  (no phone number on file)");
            }
        }
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private Example() {
    }
}
