package ilion.later;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.CASResult;
import org.apache.cassandra.thrift.CfDef;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnDef;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ColumnSlice;
import org.apache.cassandra.thrift.Compression;
import org.apache.cassandra.thrift.CounterColumn;
import org.apache.cassandra.thrift.CfSplit;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.IndexClause;
import org.apache.cassandra.thrift.IndexExpression;
import org.apache.cassandra.thrift.IndexOperator;
import org.apache.cassandra.thrift.IndexType;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.KsDef;
import org.apache.cassandra.thrift.MultiSliceRequest;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.cassandra.thrift.TokenRange;
import org.apache.cassandra.thrift.cassandra_20Constants;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * The later API's smoke test in Java (IDL 20.1.0, the Thrift interface of Cassandra 0.7 to
 * 3.11), over the buffered (plain socket) and the framed transport, through the code
 * {@code thrift -gen java} makes from idl/cassandra-20.thrift: the same checks as
 * clients/ruby/smoke_test20.rb and clients/node/smoke_test20.js.
 *
 * <pre>java ilion.later.SmokeTest20 HOST LATER_PORT</pre>
 *
 * Exits with status 1 at the first failed check, naming it.
 */
public final class SmokeTest20 {
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
                System.err.println("java later smoke test (" + name + ") FAILED: " + e.getMessage());
                System.exit(1);
            }
            System.out.println("java later smoke test (" + name + "): ok");
        }
        try (TTransport t = new TFramedTransport(new TSocket(host, port, 10_000))) {
            t.open();
            everyOtherMethod(new Cassandra.Client(new TBinaryProtocol(t)));
        } catch (AssertionError e) {
            System.err.println("java later smoke test (every other method) FAILED: " + e.getMessage());
            System.exit(1);
        }
        System.out.println("java later smoke test (every other method): ok");
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

    static Column column(String name, String value, long ts) {
        return new Column(b(name)).setValue(b(value)).setTimestamp(ts);
    }

    static ColumnParent parent(String cf) {
        return new ColumnParent(cf);
    }

    static ColumnPath path(String cf, String column) {
        return new ColumnPath(cf).setColumn(b(column));
    }

    static SlicePredicate whole(boolean reversed, int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), reversed, count));
    }

    static List<String> names(List<ColumnOrSuperColumn> items) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn c : items) {
            out.add(s(c.getColumn().getName()));
        }
        return out;
    }

    static Mutation insertion(Column c) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(c));
    }

    interface Call {
        void run() throws Exception;
    }

    /** The why of the InvalidRequestException `call` raises. */
    static String why(Call call) throws Exception {
        try {
            call.run();
        } catch (InvalidRequestException e) {
            return e.getWhy();
        }
        throw new AssertionError("no InvalidRequestException");
    }

    static CfDef find(KsDef ks, String name) {
        for (CfDef cf : ks.getCf_defs()) {
            if (cf.getName().equals(name)) {
                return cf;
            }
        }
        throw new AssertionError("no column family " + name);
    }

    /**
     * The methods the smoke test does not reach, once, framed: schema changes, counters,
     * indexes, paging, multi-slices, atomic batches, truncate, the ring and splits, tracing,
     * login and the CQL calls' answers.
     */
    static void everyOtherMethod(Cassandra.Client client) throws Exception {
        long ts = System.currentTimeMillis() * 1000;
        String ks = "SmokeJava" + UUID.randomUUID().toString().substring(0, 8);
        KsDef ksDef = new KsDef(ks, "SimpleStrategy", new ArrayList<>())
                .setStrategy_options(Collections.singletonMap("replication_factor", "1"));
        String version = client.system_add_keyspace(ksDef);
        checkEquals(Collections.singletonMap(version, Collections.singletonList("127.0.0.1")),
                client.describe_schema_versions(), "describe_schema_versions");
        client.set_keyspace(ks);
        ColumnDef owner = new ColumnDef(b("owner"), "UTF8Type").setIndex_type(IndexType.KEYS).setIndex_name("Items_owner");
        client.system_add_column_family(new CfDef(ks, "Items").setComparator_type("UTF8Type")
                .setColumn_metadata(Collections.singletonList(owner)));
        client.system_add_column_family(new CfDef(ks, "Hits").setDefault_validation_class("CounterColumnType"));
        checkEquals("Hits,Items", find(client.describe_keyspace(ks), "Hits").getName() + ","
                + find(client.describe_keyspace(ks), "Items").getName(), "created column families");

        for (String k : new String[] {"a", "b", "c"}) {
            for (String n : new String[] {"x", "y", "z"}) {
                client.insert(b(k), parent("Items"), column(n, k + n, ts), ONE);
            }
            client.insert(b(k), parent("Items"), column("owner", k.equals("b") ? "bob" : "ann", ts), ONE);
        }
        Map<ByteBuffer, Integer> counts = client.multiget_count(Arrays.asList(b("a"), b("b")), parent("Items"), whole(false, 100), ONE);
        checkEquals(4, counts.get(b("a")), "multiget_count a");
        checkEquals(4, counts.get(b("b")), "multiget_count b");
        KeyRange everything = new KeyRange(100).setStart_key(new byte[0]).setEnd_key(new byte[0]);
        int paged = 0;
        for (KeySlice row : client.get_paged_slice("Items", new KeyRange(6).setStart_key(new byte[0]).setEnd_key(new byte[0]), b(""), ONE)) {
            paged += row.getColumnsSize();
        }
        checkEquals(6, paged, "get_paged_slice columns");
        IndexClause clause = new IndexClause(Collections.singletonList(
                new IndexExpression(b("owner"), IndexOperator.EQ, b("bob"))), b(""), 10);
        List<KeySlice> indexed = client.get_indexed_slices(parent("Items"), clause, whole(false, 100), ONE);
        check(indexed.size() == 1 && s(indexed.get(0).getKey()).equals("b"), "get_indexed_slices");
        MultiSliceRequest multi = new MultiSliceRequest().setKey(b("a")).setColumn_parent(parent("Items"))
                .setColumn_slices(Arrays.asList(new ColumnSlice().setStart(b("x")).setFinish(b("x")),
                        new ColumnSlice().setStart(b("z")).setFinish(b("z"))));
        checkEquals(Arrays.asList("x", "z"), names(client.get_multi_slice(multi)), "get_multi_slice");
        Map<ByteBuffer, Map<String, List<Mutation>>> atomic = Collections.singletonMap(b("d"),
                Collections.singletonMap("Items", Collections.singletonList(insertion(column("x", "dx", ts)))));
        client.atomic_batch_mutate(atomic, ONE);
        checkEquals(4, client.get_range_slices(parent("Items"), whole(false, 100), everything, ONE).size(), "rows after the atomic batch");

        // counters
        client.add(b("p"), parent("Hits"), new CounterColumn(b("views"), 12), ONE);
        client.add(b("p"), parent("Hits"), new CounterColumn(b("views"), -21), ONE);
        checkEquals(-9L, client.get(b("p"), path("Hits", "views"), ONE).getCounter_column().getValue(), "counter");
        client.remove_counter(b("p"), path("Hits", "views"), ONE);
        try {
            client.get(b("p"), path("Hits", "views"), ONE);
            check(false, "a removed counter was found");
        } catch (NotFoundException e) {
            check(true, "removed counter");
        }

        // the ring, splits and tracing
        List<TokenRange> ring = client.describe_ring(ks);
        checkEquals(1, ring.size(), "describe_ring");
        checkEquals(ring, client.describe_local_ring(ks), "describe_local_ring");
        checkEquals(Collections.singletonList("127.0.0.1"), new ArrayList<>(client.describe_token_map().values()), "describe_token_map");
        checkEquals("org.apache.cassandra.dht.RandomPartitioner", client.describe_partitioner(), "describe_partitioner");
        checkEquals("org.apache.cassandra.locator.SimpleSnitch", client.describe_snitch(), "describe_snitch");
        List<CfSplit> splits = client.describe_splits_ex("Items", "0", "0", 2);
        long rows = 0;
        List<String> bounds = new ArrayList<>();
        bounds.add(splits.get(0).getStart_token());
        for (CfSplit split : splits) {
            rows += split.getRow_count();
            bounds.add(split.getEnd_token());
        }
        checkEquals(4L, rows, "describe_splits_ex rows");
        checkEquals(bounds, client.describe_splits("Items", "0", "0", 2), "describe_splits");
        checkEquals(16, client.trace_next_query().remaining(), "trace_next_query");

        // login under AllowAllAuthenticator, and the CQL calls
        client.login(new AuthenticationRequest(new HashMap<>()));
        client.set_cql_version("3.0.0");
        String noCql = "CQL is not supported yet";
        checkEquals(noCql, why(() -> client.execute_cql3_query(b("SELECT 1"), Compression.NONE, ONE)), "execute_cql3_query");
        checkEquals(noCql, why(() -> client.prepare_cql3_query(b("SELECT 1"), Compression.NONE)), "prepare_cql3_query");
        checkEquals(noCql, why(() -> client.execute_prepared_cql3_query(1, new ArrayList<>(), ONE)), "execute_prepared_cql3_query");
        String removed = "CQL2 has been removed in Cassandra 2.2. Please use CQL3 instead";
        checkEquals(removed, why(() -> client.execute_cql_query(b("SELECT 1"), Compression.NONE)), "execute_cql_query");
        checkEquals(removed, why(() -> client.prepare_cql_query(b("SELECT 1"), Compression.NONE)), "prepare_cql_query");
        checkEquals(removed, why(() -> client.execute_prepared_cql_query(1, new ArrayList<>())), "execute_prepared_cql_query");

        // schema updates, truncate and drops
        CfDef items = find(client.describe_keyspace(ks), "Items").setComment("updated");
        client.system_update_column_family(items);
        checkEquals("updated", find(client.describe_keyspace(ks), "Items").getComment(), "system_update_column_family");
        client.system_update_keyspace(ksDef.setDurable_writes(false));
        check(!client.describe_keyspace(ks).isDurable_writes(), "system_update_keyspace");
        client.truncate("Items");
        checkEquals(0, client.get_range_slices(parent("Items"), whole(false, 100), everything, ONE).size(), "truncate");
        client.system_drop_column_family("Items");
        checkEquals(1, client.describe_keyspace(ks).getCf_defsSize(), "system_drop_column_family");
        client.system_drop_keyspace(ks);
        try {
            client.describe_keyspace(ks);
            check(false, "a dropped keyspace was described");
        } catch (NotFoundException e) {
            check(true, "system_drop_keyspace");
        }
    }

    static void smoke(Cassandra.Client client, String tag) throws Exception {
        // A binary key: not valid UTF-8.
        byte[] raw = (tag + "-" + UUID.randomUUID() + "-").getBytes(StandardCharsets.UTF_8);
        byte[] keyBytes = Arrays.copyOf(raw, raw.length + 1);
        keyBytes[raw.length] = (byte) 0xFF;
        ByteBuffer key = ByteBuffer.wrap(keyBytes);
        long ts = System.currentTimeMillis() * 1000;

        // describe_*
        checkEquals("20.1.0", client.describe_version(), "describe_version");
        checkEquals(cassandra_20Constants.VERSION, client.describe_version(), "VERSION constant");
        checkEquals("Test Cluster", client.describe_cluster_name(), "describe_cluster_name");
        List<String> keyspaces = new ArrayList<>();
        for (KsDef ks : client.describe_keyspaces()) {
            keyspaces.add(ks.getName());
        }
        check(keyspaces.containsAll(Arrays.asList("BloggyAppy", "Keyspace1", "system")), "describe_keyspaces " + keyspaces);
        KsDef blog = client.describe_keyspace("BloggyAppy");
        checkEquals("org.apache.cassandra.locator.SimpleStrategy", blog.getStrategy_class(), "strategy");
        checkEquals(Collections.singletonMap("replication_factor", "1"), blog.getStrategy_options(), "options");
        List<String> cfs = new ArrayList<>();
        CfDef comments = null;
        for (CfDef cf : blog.getCf_defs()) {
            cfs.add(cf.getName());
            if (cf.getName().equals("Comments")) {
                comments = cf;
            }
        }
        checkEquals(Arrays.asList("Authors", "BlogEntries", "Comments", "TaggedPosts"), cfs, "BloggyAppy's CFs");
        check(comments != null, "Comments described");
        checkEquals("Super", comments.getColumn_type(), "Comments type");
        checkEquals(MARSHAL + "TimeUUIDType", comments.getComparator_type(), "Comments comparator");
        checkEquals(MARSHAL + "BytesType", comments.getSubcomparator_type(), "Comments subcomparator");

        // The session keyspace.
        try {
            client.set_keyspace("Nope");
            check(false, "set_keyspace(Nope) succeeded");
        } catch (InvalidRequestException e) {
            checkEquals("Keyspace 'Nope' does not exist", e.getWhy(), "set_keyspace(Nope)");
        }
        client.set_keyspace("Keyspace1");

        // insert, get, get_slice, get_count, TTL
        for (String n : new String[] {"c2", "c3", "c1"}) {
            client.insert(key, parent("Standard1"), column(n, "value-" + n, ts), ONE);
        }
        Column got = client.get(key, path("Standard1", "c2"), ONE).getColumn();
        checkEquals("c2/value-c2/" + ts + "/false",
                s(got.getName()) + "/" + s(got.getValue()) + "/" + got.getTimestamp() + "/" + got.isSetTtl(), "get");
        checkEquals(Arrays.asList("c1", "c2", "c3"), names(client.get_slice(key, parent("Standard1"), whole(false, 100), ONE)), "get_slice");
        checkEquals(Arrays.asList("c3", "c2"), names(client.get_slice(key, parent("Standard1"), whole(true, 2), ONE)), "reversed get_slice");
        SlicePredicate byName = new SlicePredicate().setColumn_names(Arrays.asList(b("c3"), b("missing"), b("c1")));
        checkEquals(Arrays.asList("c1", "c3"), names(client.get_slice(key, parent("Standard1"), byName, ONE)), "get_slice by names");
        checkEquals(3, client.get_count(key, parent("Standard1"), whole(false, 100), ONE), "get_count");
        client.insert(key, parent("Standard1"), column("short", "lived", ts).setTtl(3600), ONE);
        checkEquals(3600, client.get(key, path("Standard1", "short"), ONE).getColumn().getTtl(), "ttl read back");

        // batch_mutate: a column, a deletion and a super column in one call
        Map<ByteBuffer, Map<String, List<Mutation>>> batch = new HashMap<>();
        Map<String, List<Mutation>> byCf = new HashMap<>();
        Deletion deletion = new Deletion().setTimestamp(ts + 1)
                .setPredicate(new SlicePredicate().setColumn_names(Arrays.asList(b("c1"), b("short"))));
        byCf.put("Standard1", Arrays.asList(insertion(column("c4", "value-c4", ts)), new Mutation().setDeletion(deletion)));
        SuperColumn sc = new SuperColumn(b("sc"), Arrays.asList(column("b", "2", ts), column("a", "1", ts)));
        byCf.put("Super1", Collections.singletonList(
                new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(sc))));
        batch.put(key, byCf);
        client.batch_mutate(batch, ONE);
        checkEquals(Arrays.asList("c2", "c3", "c4"), names(client.get_slice(key, parent("Standard1"), whole(false, 100), ONE)), "after batch_mutate");
        SuperColumn read = client.get(key, new ColumnPath("Super1").setSuper_column(b("sc")), ONE).getSuper_column();
        checkEquals("a,b", s(read.getColumns().get(0).getName()) + "," + s(read.getColumns().get(1).getName()), "super column");

        // multiget_slice and a key range holding just this row
        byte[] otherBytes = Arrays.copyOf(keyBytes, keyBytes.length + 1);
        otherBytes[keyBytes.length] = '2';
        ByteBuffer other = ByteBuffer.wrap(otherBytes);
        Map<ByteBuffer, List<ColumnOrSuperColumn>> rows =
                client.multiget_slice(Arrays.asList(key, other), parent("Standard1"), whole(false, 100), ONE);
        checkEquals(Arrays.asList("c2", "c3", "c4"), names(rows.get(key)), "multiget_slice, the written key");
        checkEquals(Collections.emptyList(), rows.get(other), "multiget_slice, an empty key");
        KeyRange range = new KeyRange(10).setStart_key(keyBytes).setEnd_key(keyBytes);
        List<KeySlice> slices = client.get_range_slices(parent("Standard1"), whole(false, 100), range, ONE);
        check(slices.size() == 1 && Arrays.equals(slices.get(0).getKey(), keyBytes), "get_range_slices of one key");

        // cas on a row with nothing live, then against a value it does not hold
        CASResult made = client.cas(other, "Standard1", Collections.emptyList(),
                Collections.singletonList(column("n", "1", ts)), ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM);
        check(made.isSuccess(), "cas on an empty row");
        CASResult failed = client.cas(other, "Standard1", Collections.singletonList(column("n", "0", ts)),
                Collections.singletonList(column("n", "2", ts)), ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM);
        check(!failed.isSuccess() && failed.getCurrent_values().size() == 1
                && s(failed.getCurrent_values().get(0).getValue()).equals("1"), "failed cas reports the current value");

        // remove a column, then the row; the declared exceptions
        client.remove(key, path("Standard1", "c2"), ts + 2, ONE);
        try {
            client.get(key, path("Standard1", "c2"), ONE);
            check(false, "a removed column was found");
        } catch (NotFoundException e) {
            check(true, "NotFoundException");
        }
        client.remove(key, new ColumnPath("Standard1"), ts + 3, ONE);
        checkEquals(Collections.emptyList(), client.get_slice(key, parent("Standard1"), whole(false, 100), ONE), "after removing the row");
        try {
            client.get_slice(key, parent("Nope"), whole(false, 100), ONE);
            check(false, "an unknown table was read");
        } catch (InvalidRequestException e) {
            checkEquals("unconfigured table Nope", e.getWhy(), "unknown table");
        }
        try {
            client.describe_keyspace("Nope");
            check(false, "an unknown keyspace was described");
        } catch (NotFoundException e) {
            check(true, "NotFoundException for an unknown keyspace");
        }
    }
}
