# Flatten JSON into one "path=value" line per scalar, for busybox sh tests:
#   {"drives":[{"device":"/dev/sda","size":5,"native":null}]}
# becomes
#   .drives[0].device=/dev/sda
#   .drives[0].size=5
#   .drives[0].native=null
# Strings lose their quotes (escapes \" \\ \/ are decoded, others are kept
# as written); empty objects and arrays print as {} and []. Exits 1 with a
# message on stderr when the input is not one well-formed JSON value.

function ws() {
	while (pos <= n && index(" \t\r\n", substr(s, pos, 1)) > 0)
		pos++
}

function str(   c, d, out) {
	pos++
	out = ""
	while (pos <= n) {
		c = substr(s, pos, 1)
		if (c == "\\") {
			d = substr(s, pos + 1, 1)
			if (d == "\"" || d == "\\" || d == "/")
				out = out d
			else
				out = out c d
			pos += 2
			continue
		}
		if (c == "\"") {
			pos++
			return out
		}
		out = out c
		pos++
	}
	bad = "unterminated string"
	return out
}

function val(path,   c, k, i, start) {
	ws()
	c = substr(s, pos, 1)
	if (c == "{") {
		pos++
		ws()
		if (substr(s, pos, 1) == "}") {
			pos++
			print path "={}"
			return
		}
		while (!bad) {
			ws()
			if (substr(s, pos, 1) != "\"") {
				bad = "expected a key"
				return
			}
			k = str()
			ws()
			if (substr(s, pos, 1) != ":") {
				bad = "expected :"
				return
			}
			pos++
			val(path "." k)
			if (bad)
				return
			ws()
			c = substr(s, pos, 1)
			pos++
			if (c == "}")
				return
			if (c != ",")
				bad = "expected , or }"
		}
		return
	}
	if (c == "[") {
		pos++
		ws()
		if (substr(s, pos, 1) == "]") {
			pos++
			print path "=[]"
			return
		}
		for (i = 0; !bad; i++) {
			val(path "[" i "]")
			if (bad)
				return
			ws()
			c = substr(s, pos, 1)
			pos++
			if (c == "]")
				return
			if (c != ",")
				bad = "expected , or ]"
		}
		return
	}
	if (c == "\"") {
		k = str()
		print path "=" k
		return
	}
	start = pos
	while (pos <= n && index(",:]} \t\r\n{[\"", substr(s, pos, 1)) == 0)
		pos++
	if (pos == start) {
		bad = "unexpected character"
		return
	}
	k = substr(s, start, pos - start)
	if (k !~ /^(true|false|null|-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)$/) {
		bad = "bad literal " k
		return
	}
	print path "=" k
}

{ s = s $0 "\n" }

END {
	n = length(s)
	pos = 1
	bad = ""
	val("")
	ws()
	if (!bad && pos <= n)
		bad = "trailing text"
	if (bad) {
		print "json.awk: " bad " at offset " pos > "/dev/stderr"
		exit 1
	}
}
