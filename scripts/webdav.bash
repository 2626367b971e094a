# A WebDAV server for the upload tests and `make fleet-demo`: Debian's
# nginx with its dav module, on 127.0.0.1 only, on a free port, from a
# config and prefix written into a work folder, stopped by the caller's
# trap (webdav_stop) whatever happens, and bounded in time by `timeout`
# even if no trap runs.
#
#   webdav_start DIR [full_put_path [ROOT]]: sets WEBDAV_PORT and
#   WEBDAV_ROOT (ROOT, else DIR/dav: what PUTs land in; DIR is emptied
#   first, ROOT never is); with full_put_path nginx makes missing
#   collections itself; without it a PUT under one is refused (nginx: 500,
#   Apache mod_dav: 409), and the client must MKCOL.
#   webdav_stop

NGINX=${NGINX:-/usr/sbin/nginx}
WEBDAV_PID=

webdav_start() {
	local dir=$1 full=off user=
	[[ ${2:-} == full_put_path ]] && full=on
	[[ -x $NGINX ]] || { echo "webdav: $NGINX not found (Debian package nginx; scripts/deps.sh test)"; return 1; }
	dir=$(realpath -m "$dir")
	rm -rf "$dir"
	WEBDAV_ROOT=$(realpath -m "${3:-$dir/dav}")
	mkdir -p "$WEBDAV_ROOT" "$dir/tmp" "$dir/logs"
	# nginx started as root runs its worker as nobody unless told: the
	# files then belong to whoever started it, as any other output.
	[[ $(id -u) == 0 ]] && user="user $(id -un) $(id -gn);"
	WEBDAV_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat > "$dir/nginx.conf" <<CONF
daemon off;
$user
worker_processes 1;
error_log $dir/logs/error.log;
pid $dir/nginx.pid;
events { worker_connections 64; }
http {
	access_log $dir/logs/access.log;
	client_body_temp_path $dir/tmp/body;
	proxy_temp_path $dir/tmp/proxy;
	fastcgi_temp_path $dir/tmp/fastcgi;
	uwsgi_temp_path $dir/tmp/uwsgi;
	scgi_temp_path $dir/tmp/scgi;
	server {
		listen 127.0.0.1:$WEBDAV_PORT;
		root $WEBDAV_ROOT;
		client_max_body_size 64m;
		location / {
			dav_methods PUT MKCOL;
			create_full_put_path $full;
			dav_access user:rw group:r all:r;
		}
	}
}
CONF
	timeout "${WEBDAV_TIMEOUT:-600}" "$NGINX" -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log" \
		> "$dir/logs/stdout" 2>&1 &
	WEBDAV_PID=$!
	# Ready when it answers; a bounded number of tries, no timing assumed.
	for _ in $(seq 1 100); do
		python3 - "$WEBDAV_PORT" 2>/dev/null <<'PY' && return 0
import socket, sys
socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
PY
		kill -0 "$WEBDAV_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "webdav: nginx did not start (see $dir/logs)"
	cat "$dir/logs/error.log" 2>/dev/null | tail -n 5
	return 1
}

webdav_stop() {
	if [[ -n $WEBDAV_PID ]]; then
		kill "$WEBDAV_PID" 2>/dev/null
		wait "$WEBDAV_PID" 2>/dev/null
		WEBDAV_PID=
	fi
}
