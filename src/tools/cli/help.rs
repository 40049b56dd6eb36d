//! The text of `help` / `?`: every statement of the language, one line each, then the literal
//! forms. docs/cli.md says the same at length.

/// Printed by `help` and `?`.
pub const HELP: &str = "\
List of all CLI commands:
?                                                    Same as help.
help                                                 Display this help.
connect <hostname>/<port>                            Connect to a Thrift service.
use <keyspace> [<username> '<password>']             Make <keyspace> the default (and log in).
describe keyspace [<keyspace>]                       Describe a keyspace's column families.
exit                                                 Exit CLI.
quit                                                 Exit CLI.
show config file                                     Display contents of config file.
show cluster name                                    Display cluster name.
show keyspaces                                       Show list of keyspaces.
show api version                                     Show server API version.
get <ks>.<cf>['<key>']                               Get a slice of columns.
get <ks>.<cf>['<key>']['<super>']                    Get a slice of sub columns.
get <ks>.<cf>['<key>']['<col>']                      Get a column value.
get <ks>.<cf>['<key>']['<super>']['<col>']           Get a sub column value.
set <ks>.<cf>['<key>']['<col>'] = <value>            Set a column.
set <ks>.<cf>['<key>']['<super>']['<col>'] = <value> Set a sub column.
del <ks>.<cf>['<key>']                               Delete record.
del <ks>.<cf>['<key>']['<col>']                      Delete column (or super column).
del <ks>.<cf>['<key>']['<super>']['<col>']           Delete sub column.
count <ks>.<cf>['<key>']                             Count columns in record.
count <ks>.<cf>['<key>']['<super>']                  Count columns in a super column.
list <ks>.<cf> [limit <n>]                           List rows in token order (default 100).

After 'use <ks>', '<ks>.' may be left out. set and del take a trailing 'timestamp <n>'
(default: now, in microseconds). Names are written as their column family's comparator
reads them: 42 for LongType, a UUID or timeuuid() for UUID types, text otherwise; 0x<hex>
gives raw bytes and long(<n>) 8 big-endian bytes, for names and values alike.
Statements end at the end of the line or at ';'. '--' starts a comment.
";
