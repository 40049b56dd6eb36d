//! The text of `help` / `?`: every statement of the language, one line each, then the literal
//! forms. docs/cli.md says the same at length.

/// Printed by `help` and `?`.
pub const HELP: &str = "\
Statements (one per line, or separated by ';'):
help, ?                                              This list.
quit, exit                                           Leave the cli.
connect <host>/<port>                                Connect to a server's Thrift port.
use <ks> [<user> '<password>']                       Default to <ks> (logging in to it).
describe keyspace [<ks>]                             The column families of <ks>.
show cluster name                                    The server's cluster name.
show config file                                     The server's storage-conf.xml.
show api version                                     The server's Thrift API version.
show keyspaces                                       Every keyspace, one per line.
get <ks>.<cf>['<key>']                               A whole row (last names first).
get <ks>.<cf>['<key>']['<super>']                    The columns of a super column.
get <ks>.<cf>['<key>']['<col>']                      One column.
get <ks>.<cf>['<key>']['<super>']['<col>']           One column of a super column.
set <ks>.<cf>['<key>']['<col>'] = <value>            Write a column.
set <ks>.<cf>['<key>']['<super>']['<col>'] = <value> Write a column of a super column.
del <ks>.<cf>['<key>']                               Delete a row.
del <ks>.<cf>['<key>']['<col or super>']             Delete a column or a super column.
del <ks>.<cf>['<key>']['<super>']['<col>']           Delete a column of a super column.
count <ks>.<cf>['<key>']                             How many columns a row has.
count <ks>.<cf>['<key>']['<super>']                  How many columns a super column has.
list <ks>.<cf> [limit <n>]                           Rows in token order (first 100).

After 'use <ks>', '<ks>.' may be left out. set and del take a trailing 'timestamp <n>'
(default: now, in microseconds). Names are written as their column family's comparator
reads them: 42 for LongType, a UUID or timeuuid() for UUID types, text otherwise; 0x<hex>
gives raw bytes and long(<n>) 8 big-endian bytes, for names and values alike.
'--' starts a comment.
";
