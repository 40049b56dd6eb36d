package ilion.example;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.cassandra.thrift.cassandraConstants;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * The client smoke test in Java, over the buffered (plain socket) and the framed transport:
 * the same checks as clients/python/smoke.py, through the code {@code thrift -gen java} makes.
 *
 * <pre>java ilion.example.SmokeTest HOST PORT</pre>
 *
 * Exits with status 1 at the first failed check, naming it.
 */
public final class SmokeTest {
    private static final String KS = "Keyspace1";
    private static final String MARSHAL = "org.apache.cassandra.db.marshal.";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static int checks = 0;

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        for (boolean framed : new boolean[] {false, true}) {
            String name = framed ? "framed" : "buffered";
            TTransport transport = new TSocket(host, port, 10_000);
            if (framed) {
                transport = new TFramedTransport(transport);
            }
            try (TTransport t = transport) {
                t.open();
                smoke(new Cassandra.Client(new TBinaryProtocol(t)), "java-" + name);
            } catch (AssertionError e) {
                System.err.println("java smoke test (" + name + ") FAILED: " + e.getMessage());
                System.exit(1);
            }
            System.out.println("java smoke test (" + name + "): ok");
        }
        System.out.println(checks + " checks passed");
    }

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static void checkEquals(Object want, Object got, String what) {
        check(Objects.equals(want, got), what + ": wanted " + want + ", got " + got);
    }

    static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    static String s(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static ColumnPath path(String cf, String column) {
        ColumnPath p = new ColumnPath(cf);
        if (column != null) {
            p.setColumn(b(column));
        }
        return p;
    }

    static SlicePredicate whole(boolean reversed, int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), reversed, count));
    }

    static List<String> names(List<ColumnOrSuperColumn> columns) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn c : columns) {
            out.add(s(c.getColumn().getName()));
        }
        return out;
    }

    static Mutation insertion(Column c) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(c));
    }

    static void smoke(Cassandra.Client client, String tag) throws Exception {
        String key = "smoke-" + tag + "-" + UUID.randomUUID().toString().substring(0, 8);
        long ts = System.currentTimeMillis() * 1000;
        ColumnParent standard = new ColumnParent("Standard1");

        // describe_*
        checkEquals("2.2.0", client.describe_version(), "describe_version");
        checkEquals(cassandraConstants.VERSION, client.describe_version(), "VERSION constant");
        checkEquals("Test Cluster", client.describe_cluster_name(), "describe_cluster_name");
        check(client.describe_keyspaces().containsAll(Arrays.asList("Keyspace1", "BloggyAppy", "system")),
                "describe_keyspaces lists Keyspace1, BloggyAppy and system");
        Map<String, Map<String, String>> blog = client.describe_keyspace("BloggyAppy");
        checkEquals(new java.util.TreeSet<>(Arrays.asList("Authors", "BlogEntries", "Comments", "TaggedPosts")),
                new java.util.TreeSet<>(blog.keySet()), "BloggyAppy column families");
        checkEquals("Standard", blog.get("TaggedPosts").get("Type"), "TaggedPosts type");
        checkEquals(MARSHAL + "TimeUUIDType", blog.get("TaggedPosts").get("CompareWith"), "TaggedPosts comparator");
        checkEquals("Super", blog.get("Comments").get("Type"), "Comments type");
        checkEquals(MARSHAL + "TimeUUIDType", blog.get("Comments").get("CompareWith"), "Comments comparator");
        checkEquals(MARSHAL + "BytesType", blog.get("Comments").get("CompareSubcolumnsWith"), "Comments subcomparator");

        // insert, get, get_slice, get_count
        for (String n : new String[] {"c2", "c3", "c1"}) {
            client.insert(KS, key, path("Standard1", n), b("value-" + n), ts, ONE);
        }
        Column got = client.get(KS, key, path("Standard1", "c2"), ONE).getColumn();
        checkEquals("c2/value-c2/" + ts, s(got.getName()) + "/" + s(got.getValue()) + "/" + got.getTimestamp(), "get");
        checkEquals(List.of("c1", "c2", "c3"), names(client.get_slice(KS, key, standard, whole(false, 100), ONE)), "slice");
        checkEquals(List.of("c3", "c2"), names(client.get_slice(KS, key, standard, whole(true, 2), ONE)), "reversed slice");
        SlicePredicate byName = new SlicePredicate().setColumn_names(List.of(b("c3"), b("missing"), b("c1")));
        checkEquals(List.of("c1", "c3"), names(client.get_slice(KS, key, standard, byName, ONE)), "slice by names");
        checkEquals(3, client.get_count(KS, key, standard, ONE), "get_count");

        // batch_mutate
        Map<String, List<Mutation>> byCf = new HashMap<>();
        Deletion deletion = new Deletion(ts + 1).setPredicate(new SlicePredicate().setColumn_names(List.of(b("c1"))));
        byCf.put("Standard1", List.of(insertion(new Column(b("c4"), b("value-c4"), ts)), new Mutation().setDeletion(deletion)));
        SuperColumn sc = new SuperColumn(b("sc"), List.of(new Column(b("b"), b("2"), ts), new Column(b("a"), b("1"), ts)));
        byCf.put("Super1", List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(sc))));
        client.batch_mutate(KS, Map.of(key, byCf), ONE);
        checkEquals(List.of("c2", "c3", "c4"), names(client.get_slice(KS, key, standard, whole(false, 100), ONE)), "after batch_mutate");
        SuperColumn read = client.get(KS, key, new ColumnPath("Super1").setSuper_column(b("sc")), ONE).getSuper_column();
        List<String> pairs = new ArrayList<>();
        for (Column c : read.getColumns()) {
            pairs.add(s(c.getName()) + "=" + s(c.getValue()));
        }
        checkEquals(List.of("a=1", "b=2"), pairs, "super column from batch_mutate");
        checkEquals(2, client.get_count(KS, key, new ColumnParent("Super1").setSuper_column(b("sc")), ONE), "subcolumn count");

        // remove
        client.remove(KS, key, path("Standard1", "c2"), ts + 2, ONE);
        try {
            client.get(KS, key, path("Standard1", "c2"), ONE);
            check(false, "get of a removed column raises NotFoundException");
        } catch (NotFoundException expected) {
            checks++;
        }
        client.remove(KS, key, path("Standard1", null), ts + 3, ONE);
        checkEquals(0, client.get_count(KS, key, standard, ONE), "count after row remove");
        checkEquals(List.of(), client.get_slice(KS, key, standard, whole(false, 100), ONE), "slice after row remove");

        // declared exceptions
        try {
            client.get_slice(KS, key, new ColumnParent("Nope"), whole(false, 100), ONE);
            check(false, "unknown column family raises InvalidRequestException");
        } catch (InvalidRequestException e) {
            checkEquals("unconfigured columnfamily Nope", e.getWhy(), "message for an unknown CF");
        }
        try {
            client.insert("Nope", key, path("Standard1", "c"), b("v"), ts, ONE);
            check(false, "unknown keyspace raises InvalidRequestException");
        } catch (InvalidRequestException e) {
            checkEquals("Keyspace Nope does not exist in this schema.", e.getWhy(), "message for an unknown keyspace");
        }
        try {
            client.describe_keyspace("Nope");
            check(false, "describe_keyspace of an unknown keyspace raises NotFoundException");
        } catch (NotFoundException expected) {
            checks++;
        }
    }

    private SmokeTest() {
    }
}
