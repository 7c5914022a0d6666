#!/usr/bin/env python3
"""DuckDB helper: a long-lived process that runs SQL on DuckDB for the testbed.

Started as `python3 scripts/engines/duckdb_helper.py` (needs the `duckdb` package:
`bash scripts/setup.sh --engines` installs it). `--self-test` checks the helper on a tiny
CSV file and exits 0 or 1.

PROTOCOL (version 1). Requests are JSON objects, one per line on standard input; each gets
exactly one response, a JSON object on one line on standard output, in order. Nothing else
is ever written to standard output (diagnostics go to standard error). A request may carry
"id" (any JSON value), echoed in its response. A response is {"ok": true, ...} or
{"ok": false, "error": "message"}; a bad request never ends the helper. It ends on end of
input or on {"op": "quit"}.

Values (query parameters and returned rows) use the testbed's value model:
  null                          null
  123                           integer (a JSON number without "." or exponent, 64-bit)
  2.5, 1e-07                    real (a JSON number with "." or exponent)
  "text"                        text
  {"blob": "00ff"}              blob (lower-case hex)
  {"real": "nan"|"inf"|"-inf"}  a real JSON cannot write

Operations ("op"):
  hello      -> {"protocol": 1, "duckdb": "2.0.0", "python": "3.11.7", "threads": 1}
  set        {"threads": N}  -> {"threads": N}          (threads default to 1 at start)
  load       {"tables": [{"name": T, "csv": PATH, "columns": [{"name": C, "type": TY}, ...]}],
              "replace": bool}
             -> {"tables": {T: {"rows": N}}, "ns": load time}
             CSV files as `testbed generate --csv DIR` writes them: a header line, null as
             an empty unquoted field, text always double-quoted (`""` is the empty text),
             blobs as x'hex'. TY is BIGINT, DOUBLE, VARCHAR or BLOB; give the columns so
             that types are exact ("42" is text, 42 an integer). Without "columns" DuckDB
             sniffs the types, which cannot tell "42" from 42. A table that exists is an
             error unless "replace" is true. (CSV, not the SQLite file `--sqlite` writes:
             DuckDB reads SQLite files only through an extension it downloads on first
             use; CSV with declared types is exact, and 1M documents load in about 0.6 s.)
  exec       {"sql": S, "params": [...]}  -> {"ns": time}   (a statement, result discarded)
  query      {"sql": S, "params": [...], "dialect": "duckdb"|"sqlite", "runs": N (1),
              "warmup": W (0), "mode": "rows"|"count"|"table", "hash": bool,
              "return_rows": bool, "once": bool}
             -> {"rows": N, "columns": [names], "times_ns": [one per timed run],
                 "hash": "16 hex digits" (with "hash"), "result": [[values]...] (with
                 "return_rows")}
             Each timed run is measured inside the helper with a monotonic clock:
               rows   execute the statement and fetch every row into Python tuples
                      (fetchall): DuckDB's work plus converting every value to Python;
               count  SELECT count(*) FROM (S): DuckDB's work only, nothing fetched
                      (DuckDB may skip columns the count does not need);
               table  CREATE TEMP TABLE AS S, then drop it: every row materialised in
                      DuckDB's own columnar format, none converted to Python.
             "once": true (mode rows only; runs and warmup ignored) runs the statement
             exactly once, timed from executing to having fetched every row, and
             returns that run's rows ("return_rows") and hash: what the testbed's
             `duckdb` baseline engine uses, so nothing runs twice.
             "dialect": "sqlite" accepts the SQL the testbed's SQLTranslator writes for
             SQLite: `a IS b` / `a IS NOT b` (null-safe equality, not a DuckDB form) become
             `IS NOT DISTINCT FROM` / `IS DISTINCT FROM`.
             "hash" (on one extra, untimed fetch) is an order-independent hash of the
             result: the sum mod 2^64 of the CRC-32 of each row's canonical encoding, the
             concatenation of its values encoded as
               null -> N;  integer, or a real with an integral value below 2^63 in
               magnitude -> I<decimal>;  other real -> R<shortest round-trip form>; (nan,
               inf, -inf);  text -> T<UTF-8 byte length>:<bytes>;  blob -> B<length>:<bytes>
             so 3 and 3.0 hash alike. The testbed's benchmark computes the same hash of its
             own and SQLite's results to check that the engines agree.
  quit       -> {} and the helper exits.
"""

import json
import math
import os
import sys
import tempfile
import time
import zlib

PROTOCOL = 1
TYPES = {"BIGINT", "DOUBLE", "VARCHAR", "BLOB"}


class RequestError(Exception):
    pass


def quote_identifier(name):
    return '"' + name.replace('"', '""') + '"'


def quote_string(text):
    return "'" + text.replace("'", "''") + "'"


# --- values -----------------------------------------------------------------------------

def decode_value(v):
    if v is None or isinstance(v, (int, float, str)) and not isinstance(v, bool):
        return v
    if isinstance(v, dict) and len(v) == 1:
        if "blob" in v and isinstance(v["blob"], str):
            try:
                return bytes.fromhex(v["blob"])
            except ValueError:
                raise RequestError("blob value is not hex: %r" % v["blob"][:40])
        if "real" in v and v["real"] in ("nan", "inf", "-inf"):
            return float(v["real"])
    raise RequestError("not a value: %s (expected null, a number, a string, "
                       "{\"blob\": hex} or {\"real\": nan|inf|-inf})" % json.dumps(v)[:80])


def encode_value(v):
    if v is None or isinstance(v, (int, str)) and not isinstance(v, bool):
        return v
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        if math.isnan(v):
            return {"real": "nan"}
        if math.isinf(v):
            return {"real": "inf" if v > 0 else "-inf"}
        return v
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"blob": bytes(v).hex()}
    # DECIMAL, dates and the like: not testbed values; show them as text.
    return str(v)


def canonical_value(v):
    if v is None:
        return b"N"
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, float) and math.isfinite(v) and v == int(v) and abs(v) < 2.0 ** 63:
        v = int(v)
    if isinstance(v, int):
        return b"I%d" % v
    if isinstance(v, float):
        if math.isnan(v):
            return b"Rnan;"
        if math.isinf(v):
            return b"Rinf;" if v > 0 else b"R-inf;"
        return b"R" + repr(v).encode() + b";"
    if isinstance(v, str):
        data = v.encode("utf-8", "surrogatepass")
        return b"T%d:" % len(data) + data
    if isinstance(v, (bytes, bytearray, memoryview)):
        data = bytes(v)
        return b"B%d:" % len(data) + data
    data = str(v).encode()
    return b"T%d:" % len(data) + data


def result_hash(rows):
    total = 0
    crc = zlib.crc32
    for row in rows:
        total += crc(b"".join([canonical_value(v) for v in row]))
    return "%016x" % (total & 0xFFFFFFFFFFFFFFFF)


# --- the SQLite dialect ---------------------------------------------------------------------

def sqlite_to_duckdb(sql):
    """Rewrites `IS` / `IS NOT` between two expressions into DuckDB's null-safe comparisons,
    leaving `IS NULL` / `IS NOT NULL` alone. Quoted identifiers and strings are skipped."""
    out = []
    i, n = 0, len(sql)

    def word_at(j):
        k = j
        while k < n and (sql[k].isalnum() or sql[k] == "_"):
            k += 1
        return sql[j:k].upper(), k

    def skip_space(j):
        while j < n and sql[j].isspace():
            j += 1
        return j

    while i < n:
        c = sql[i]
        if c in "\"'":
            j = i + 1
            while j < n:
                if sql[j] == c:
                    if j + 1 < n and sql[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            out.append(sql[i:j + 1])
            i = j + 1
            continue
        if c.isalpha() or c == "_":
            word, end = word_at(i)
            preceded = i == 0 or not (sql[i - 1].isalnum() or sql[i - 1] == "_")
            if word == "IS" and preceded:
                j = skip_space(end)
                nxt, nxt_end = word_at(j)
                negated = nxt == "NOT"
                if negated:
                    k = skip_space(nxt_end)
                    nxt, _ = word_at(k)
                if nxt in ("NULL", "DISTINCT", "TRUE", "FALSE", "UNKNOWN"):
                    out.append(sql[i:end])
                    i = end
                    continue
                if negated:
                    out.append("IS DISTINCT FROM")
                    i = nxt_end
                else:
                    out.append("IS NOT DISTINCT FROM")
                    i = end
                continue
            out.append(sql[i:end])
            i = end
            continue
        out.append(c)
        i += 1
    return "".join(out)


# --- the helper -------------------------------------------------------------------------

class Helper:
    def __init__(self):
        import duckdb
        self.duckdb = duckdb
        self.con = duckdb.connect(":memory:")
        self.threads = 1
        self.con.execute("SET threads = 1")
        self.temp_counter = 0

    def handle(self, request):
        op = request.get("op")
        handler = {
            "hello": self.hello, "set": self.set, "load": self.load, "exec": self.exec,
            "query": self.query, "quit": lambda r: {},
        }.get(op)
        if handler is None:
            raise RequestError("unknown op %s (known: hello, set, load, exec, query, quit)" % json.dumps(op))
        return handler(request)

    def hello(self, request):
        return {"protocol": PROTOCOL, "duckdb": self.duckdb.__version__,
                "python": "%d.%d.%d" % sys.version_info[:3], "threads": self.threads}

    def set(self, request):
        threads = request.get("threads")
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
            raise RequestError("set: \"threads\" must be a positive integer, got %s" % json.dumps(threads))
        self.con.execute("SET threads = %d" % threads)
        self.threads = threads
        return {"threads": threads}

    def load(self, request):
        tables = request.get("tables")
        if not isinstance(tables, list) or not tables:
            raise RequestError("load: \"tables\" must be a non-empty list")
        replace = request.get("replace", False) is True
        start = time.perf_counter_ns()
        counts = {}
        for table in tables:
            name, path = table.get("name"), table.get("csv")
            if not isinstance(name, str) or not name or not isinstance(path, str):
                raise RequestError("load: each table needs a \"name\" and a \"csv\" path")
            if not os.path.isfile(path):
                raise RequestError("load: table %s: no CSV file %s" % (name, json.dumps(path)))
            self.con.execute(self.load_statement(name, path, table.get("columns"), replace))
            counts[name] = {"rows": self.con.execute(
                "SELECT count(*) FROM " + quote_identifier(name)).fetchone()[0]}
        return {"tables": counts, "ns": time.perf_counter_ns() - start}

    @staticmethod
    def load_statement(name, path, columns, replace):
        options = "header = true, delim = ',', quote = '\"', escape = '\"', nullstr = '', " \
                  "allow_quoted_nulls = false"
        create = "CREATE OR REPLACE TABLE " if replace else "CREATE TABLE "
        if columns is None:
            source = "read_csv(%s, %s, auto_detect = true)" % (quote_string(path), options)
            return create + quote_identifier(name) + " AS SELECT * FROM " + source
        if not isinstance(columns, list) or not columns:
            raise RequestError("load: table %s: \"columns\" must be a non-empty list" % name)
        declared, picks = [], []
        for column in columns:
            cname, ctype = (column.get("name"), column.get("type")) if isinstance(column, dict) else (None, None)
            if not isinstance(cname, str) or ctype not in TYPES:
                raise RequestError("load: table %s: each column needs a \"name\" and a \"type\" in %s, got %s"
                                   % (name, sorted(TYPES), json.dumps(column)[:80]))
            q = quote_identifier(cname)
            # Blobs are written x'hex': read as text, decode here.
            declared.append("%s: %s" % (quote_string(cname), quote_string("VARCHAR" if ctype == "BLOB" else ctype)))
            if ctype == "BLOB":
                picks.append("unhex(substr(%s, 3, length(%s) - 3)) AS %s" % (q, q, q))
            else:
                picks.append(q)
        source = "read_csv(%s, %s, auto_detect = false, columns = {%s})" % (
            quote_string(path), options, ", ".join(declared))
        return create + quote_identifier(name) + " AS SELECT " + ", ".join(picks) + " FROM " + source

    def exec(self, request):
        sql, params = self.statement(request)
        start = time.perf_counter_ns()
        self.con.execute(sql, params)
        return {"ns": time.perf_counter_ns() - start}

    def statement(self, request):
        sql = request.get("sql")
        if not isinstance(sql, str) or not sql.strip():
            raise RequestError("\"sql\" must be a non-empty string")
        params = request.get("params", [])
        if not isinstance(params, list):
            raise RequestError("\"params\" must be a list")
        dialect = request.get("dialect", "duckdb")
        if dialect == "sqlite":
            sql = sqlite_to_duckdb(sql)
        elif dialect != "duckdb":
            raise RequestError("unknown dialect %s (known: duckdb, sqlite)" % json.dumps(dialect))
        return sql, [decode_value(p) for p in params]

    def query(self, request):
        sql, params = self.statement(request)
        runs, warmup = request.get("runs", 1), request.get("warmup", 0)
        for key, value, least in (("runs", runs, 1), ("warmup", warmup, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise RequestError("\"%s\" must be an integer >= %d, got %s" % (key, least, json.dumps(value)))
        mode = request.get("mode", "rows")
        run = {"rows": self.run_rows, "count": self.run_count, "table": self.run_table}.get(mode)
        if run is None:
            raise RequestError("unknown mode %s (known: rows, count, table)" % json.dumps(mode))
        want_hash = request.get("hash", False) is True
        want_rows = request.get("return_rows", False) is True
        if request.get("once", False) is True:
            if mode != "rows":
                raise RequestError("\"once\" needs mode rows, got %s" % json.dumps(mode))
            start = time.perf_counter_ns()
            cursor = self.con.execute(sql, params)
            rows = cursor.fetchall()
            elapsed = time.perf_counter_ns() - start
            response = {"rows": len(rows), "columns": [d[0] for d in cursor.description or []], "times_ns": [elapsed]}
            if want_hash:
                response["hash"] = result_hash(rows)
            if want_rows:
                response["result"] = [[encode_value(v) for v in row] for row in rows]
            return response
        # One untimed run gives the row count, the column names and, if asked, the hash.
        if mode == "count" and not want_hash and not want_rows:
            # Nothing needs the rows themselves: count them without fetching.
            cursor = self.con.execute("SELECT * FROM (" + sql + ") LIMIT 0", params)
            columns = [d[0] for d in cursor.description or []]
            count = self.con.execute("SELECT count(*) FROM (" + sql + ")", params).fetchone()[0]
            response = {"rows": count, "columns": columns}
        else:
            cursor = self.con.execute(sql, params)
            columns = [d[0] for d in cursor.description or []]
            rows = cursor.fetchall()
            response = {"rows": len(rows), "columns": columns}
            if want_hash:
                response["hash"] = result_hash(rows)
            if want_rows:
                response["result"] = [[encode_value(v) for v in row] for row in rows]
            del rows
        del cursor
        for _ in range(warmup):
            run(sql, params)
        response["times_ns"] = [run(sql, params) for _ in range(runs)]
        return response

    def run_rows(self, sql, params):
        start = time.perf_counter_ns()
        rows = self.con.execute(sql, params).fetchall()
        elapsed = time.perf_counter_ns() - start
        del rows
        return elapsed

    def run_count(self, sql, params):
        start = time.perf_counter_ns()
        self.con.execute("SELECT count(*) FROM (" + sql + ")", params).fetchone()
        return time.perf_counter_ns() - start

    def run_table(self, sql, params):
        self.temp_counter += 1
        name = "__testbed_result_%d" % self.temp_counter
        start = time.perf_counter_ns()
        self.con.execute("CREATE TEMP TABLE " + name + " AS " + sql, params)
        elapsed = time.perf_counter_ns() - start
        self.con.execute("DROP TABLE " + name)
        return elapsed


def serve():
    try:
        helper = Helper()
    except ImportError as error:
        # Answer every request with the reason, so the client sees it on its first call.
        reason = ("the duckdb Python package is not installed for %s (%s); "
                  "run `bash scripts/setup.sh --engines`" % (sys.executable, error))
        helper = None
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id, request = None, None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise RequestError("a request must be a JSON object")
            request_id = request.get("id")
            if helper is None:
                raise RequestError(reason)
            response = helper.handle(request)
            response["ok"] = True
        except RequestError as error:
            response = {"ok": False, "error": str(error)}
        except json.JSONDecodeError as error:
            response = {"ok": False, "error": "not JSON: %s" % error}
        except Exception as error:  # DuckDB's own errors: report, keep serving
            response = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
        if request_id is not None:
            response["id"] = request_id
        out.write(json.dumps(response, allow_nan=False) + "\n")
        out.flush()
        if helper is not None and isinstance(request, dict) and request.get("op") == "quit":
            break


def self_test():
    """Loads a tiny CSV with every kind of value and checks types, nulls, the SQLite dialect
    and the hash. Exits 0 when all hold."""
    helper = Helper()
    failures = []
    checks = [0]

    def check(label, got, expected):
        checks[0] += 1
        if got != expected:
            failures.append("%s: got %r, expected %r" % (label, got, expected))

    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "t.csv")
        with open(path, "w") as f:
            f.write('id,name,parent_id,score,data\n'
                    '1,"A",,2.5,x\'00ff\'\n'
                    '2,"",1,3.0,\n'
                    '3,"42",1,nan,x\'\'\n'
                    '4,"a ""quoted"", text",,,x\'41\'\n')
        columns = [{"name": "id", "type": "BIGINT"}, {"name": "name", "type": "VARCHAR"},
                   {"name": "parent_id", "type": "BIGINT"}, {"name": "score", "type": "DOUBLE"},
                   {"name": "data", "type": "BLOB"}]
        loaded = helper.handle({"op": "load", "tables": [{"name": "t", "csv": path, "columns": columns}]})
        check("rows loaded", loaded["tables"], {"t": {"rows": 4}})
        everything = helper.handle({"op": "query", "sql": "SELECT * FROM t ORDER BY id", "return_rows": True})
        check("values", everything["result"], [
            [1, "A", None, 2.5, {"blob": "00ff"}],
            [2, "", 1, 3.0, None],
            [3, "42", 1, {"real": "nan"}, {"blob": ""}],
            [4, 'a "quoted", text', None, None, {"blob": "41"}],
        ])
        # The translator's null-safe equality: parent_id IS ? matches the null rows too.
        same = helper.handle({"op": "query", "dialect": "sqlite", "runs": 2,
                              "sql": "SELECT id FROM t WHERE parent_id IS ? AND name IS NOT ?",
                              "params": [None, "A"]})
        check("IS null-safe", same["rows"], 1)
        check("times", len(same["times_ns"]), 2)
        joined = helper.handle({"op": "query", "dialect": "sqlite", "mode": "count",
                                "sql": 'SELECT l."id" FROM t AS l JOIN t AS r ON l.parent_id IS r.id'})
        check("join rows", joined["rows"], 2)
        check("columns without fetching", joined["columns"], ["id"])
        check("rewrite", sqlite_to_duckdb('SELECT "a IS b" FROM x WHERE a IS NOT NULL AND b IS c AND d IS NOT e'),
              'SELECT "a IS b" FROM x WHERE a IS NOT NULL AND b IS NOT DISTINCT FROM c AND d IS DISTINCT FROM e')
        one = helper.handle({"op": "query", "sql": "SELECT 3 AS x, 'ab' AS y", "hash": True, "mode": "table"})
        other = helper.handle({"op": "query", "sql": "SELECT 3.0 :: DOUBLE AS x, 'ab' AS y", "hash": True})
        check("3 and 3.0 hash alike", one["hash"], other["hash"])
        check("hash value", one["hash"], "%016x" % zlib.crc32(b"I3T2:ab"))
        try:
            helper.handle({"op": "load", "tables": [{"name": "t", "csv": path, "columns": columns}]})
            refused = False
        except Exception:
            refused = True
        check("an existing table is refused without replace", refused, True)
    for failure in failures:
        print("self-test: " + failure, file=sys.stderr)
    print("duckdb helper self-test: %d passed, %d failed" % (checks[0] - len(failures), len(failures)))
    return 0 if not failures else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if sys.argv[1:]:
        print("duckdb_helper.py: unknown arguments %s (known: --self-test)" % sys.argv[1:], file=sys.stderr)
        sys.exit(2)
    serve()
