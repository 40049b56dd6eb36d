//! Super column families: set of a subcolumn, get of a row, a super column and a subcolumn,
//! count of a row and of a super column, del of each level, and `list` — with super column
//! and subcolumn names through different comparators.

use super::run::script;
use super::server::Server;

#[test]
fn every_statement_on_a_bytes_super_column_family() {
    let server = Server::start();
    let out = script(
        &server,
        "use Keyspace1\n\
         set Super1['k']['sc1']['a'] = 'A' timestamp 1\n\
         set Super1['k']['sc1']['b'] = 'B' timestamp 2\n\
         set Super1['k']['sc2']['c'] = 'C' timestamp 3\n\
         get Super1['k']\n\
         get Super1['k']['sc1']\n\
         get Super1['k']['sc1']['b']\n\
         count Super1['k']\n\
         count Super1['k']['sc1']\n\
         del Super1['k']['sc1']['a'] timestamp 4\n\
         get Super1['k']['sc1']\n\
         del Super1['k']['sc2'] timestamp 5\n\
         count Super1['k']\n\
         list Super1\n\
         del Super1['k'] timestamp 6\n\
         get Super1['k']\n",
    );
    assert_eq!(
        out,
        "Using keyspace Keyspace1.\n\
         Value inserted.\nValue inserted.\nValue inserted.\n\
         => (super_column=736332,\n     (column=63, value=C, timestamp=3))\n\
         => (super_column=736331,\n     (column=61, value=A, timestamp=1)\n     \
         (column=62, value=B, timestamp=2))\n\
         Returned 2 results.\n\
         => (column=62, value=B, timestamp=2)\n\
         => (column=61, value=A, timestamp=1)\n\
         Returned 2 results.\n\
         => (column=62, value=B, timestamp=2)\n\
         2 columns\n\
         2 columns\n\
         column removed.\n\
         => (column=62, value=B, timestamp=2)\n\
         Returned 1 results.\n\
         column removed.\n\
         1 columns\n\
         -------------------\nRowKey: k\n\
         => (super_column=736331,\n     (column=62, value=B, timestamp=2))\n\
         \n1 Row Returned.\n\
         row removed.\n\
         Returned 0 results.\n"
    );
}

#[test]
fn super_and_subcolumn_names_use_their_own_comparators() {
    let server = Server::start();
    let sc = "a0b1c2d4-0000-1000-8000-000000000001";
    let sub = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
    // SuperLong: UTF8Type super columns, LongType subcolumns; SuperTime: TimeUUIDType super
    // columns, LexicalUUIDType subcolumns; Replicated.Super1: BytesType super columns,
    // AsciiType subcolumns.
    let out = script(
        &server,
        &format!(
            "set Keyspace1.SuperLong['k']['sc'][7] = 'seven' timestamp 1\n\
             set Keyspace1.SuperLong['k']['sc'][-1] = 'minus one' timestamp 2\n\
             get Keyspace1.SuperLong['k']\n\
             get Keyspace1.SuperLong['k']['sc'][7]\n\
             set Keyspace1.SuperTime['k']['{sc}'][{sub}] = 'v' timestamp 3\n\
             get Keyspace1.SuperTime['k']['{sc}']\n\
             list Keyspace1.SuperTime\n\
             set Replicated.Super1['k']['sc'][name] = 'ascii' timestamp 4\n\
             get Replicated.Super1['k']['sc']\n"
        ),
    );
    assert_eq!(
        out,
        format!(
            "Value inserted.\nValue inserted.\n\
             => (super_column=sc,\n     (column=-1, value=minus one, timestamp=2)\n     \
             (column=7, value=seven, timestamp=1))\n\
             Returned 1 results.\n\
             => (column=7, value=seven, timestamp=1)\n\
             Value inserted.\n\
             => (column={sub}, value=v, timestamp=3)\n\
             Returned 1 results.\n\
             -------------------\nRowKey: k\n\
             => (super_column={sc},\n     (column={sub}, value=v, timestamp=3))\n\
             \n1 Row Returned.\n\
             Value inserted.\n\
             => (column=name, value=ascii, timestamp=4)\n\
             Returned 1 results.\n"
        )
    );
}
