#!/usr/bin/env bash
# The car daemon protocol's shapes, cut verbatim out of car-proto 0.60 and car-server-core 0.60,
# are the fixtures of executor-core/tests/car_host/ (the loopback daemon peer speaks through
# them). `bash .ci/car-fixtures.sh check CAR_PROTO_DIR CAR_SERVER_CORE_DIR` fails when a
# fixture is no longer car's text; `write` regenerates them. Called by .ci/car-check.sh with the
# crates' directories from `cargo metadata`.
set -euo pipefail
mode="${1:?usage: $0 check|write CAR_PROTO_DIR CAR_SERVER_CORE_DIR}"
proto="${2:?car-proto directory}"
server="${3:?car-server-core directory}"
cd "$(dirname "$0")/.."
fixtures=executor-core/tests/car_host/fixtures

# From the line matching $2 (a fixed string, whole line) to the first line after it that is
# exactly $3, inclusive.
cut_block() {
    awk -v start="$2" -v stop="$3" '
        !on && $0 == start { on = 1 }
        on { print }
        on && $0 == stop && seen { exit }
        on { seen = 1 }' "$1"
}

proto_rs() {
    echo "// Cut verbatim from car-proto 0.60 src/lib.rs by .ci/car-fixtures.sh; do not edit."
    echo
    cut_block "$proto/src/lib.rs" "/// Tool definition sent by client during registration." "}"
    echo
    cut_block "$proto/src/lib.rs" "/// Mirror of \`car_ir::ToolRateLimit\` over the wire." "}"
    echo
    cut_block "$proto/src/lib.rs" "/// Server asks client to execute a tool." "}"
    echo
    cut_block "$proto/src/lib.rs" "/// Fire-and-forget \`tools.cancel\` notification (Parslee-ai/car#264)." "}"
    echo
    cut_block "$proto/src/lib.rs" "fn is_false(value: &bool) -> bool {" "}"
    echo
    cut_block "$proto/src/lib.rs" "/// Client returns tool execution result." "}"
    echo
    cut_block "$proto/src/lib.rs" "/// An inclusive range of daemon wire protocol versions a peer speaks." "}"
    echo
    cut_block "$proto/src/lib.rs" "impl ProtocolRange {" "}"
    echo
    cut_block "$proto/src/lib.rs" "impl std::fmt::Display for ProtocolRange {" "}"
    echo
    cut_block "$proto/src/lib.rs" "/// Settle a connection's wire protocol: the highest version both ranges" "}"
    echo
    cut_block "$proto/src/lib.rs" "/// Negotiate supported required/optional capabilities. Unsupported mandatory" "}"
}

handshake_rs() {
    echo "// Cut verbatim from car-server-core 0.60 src/handler.rs by .ci/car-fixtures.sh; do not edit."
    echo
    cut_block "$server/src/handler.rs" "/// \`server.handshake\` params, sent before any other call on a connection." "}"
    echo
    cut_block "$server/src/handler.rs" "/// Read \`server.handshake\` params: a missing or non-integer" "}"
    echo
    cut_block "$server/src/handler.rs" "fn client_protocol_range(params: &ServerHandshakeParams) -> car_proto::ProtocolRange {" "}"
}

message_rs() {
    echo "// Cut verbatim from car-server-core 0.60 src/handler.rs by .ci/car-fixtures.sh; do not edit."
    echo
    cut_block "$server/src/handler.rs" "#[derive(Debug, Clone, Deserialize)]" "}"
}

# The expression that turns a host's JSON-RPC answer into a ToolExecuteResponse: the
# `let tool_resp = …;` statement of the dispatcher, without `let tool_resp = ` and `;`.
callback_rs() {
    echo "// Cut verbatim from car-server-core 0.60 src/handler.rs by .ci/car-fixtures.sh; do not edit."
    echo "// The right-hand side of \`let tool_resp = …;\` in the dispatcher's callback routing."
    cut_block "$server/src/handler.rs" "                        let tool_resp = if let Some(result) = parsed.result {" "                        };" |
        sed '1s/let tool_resp = //; $s/};$/}/'
}

decode_rs() {
    echo "// Cut verbatim from car-server-core 0.60 src/session.rs by .ci/car-fixtures.sh; do not edit."
    echo
    cut_block "$server/src/session.rs" "fn decode_callback_execution(" "}"
}

generate() {
    case "$1" in
        car_proto.rs) proto_rs ;;
        handshake.rs) handshake_rs ;;
        message.rs) message_rs ;;
        callback.rs) callback_rs ;;
        decode.rs) decode_rs ;;
    esac
}

status=0
for file in car_proto.rs handshake.rs message.rs callback.rs decode.rs; do
    generated=$(generate "$file")
    [ -n "$generated" ] || { echo "nothing cut for $file" >&2; exit 1; }
    case "$mode" in
        write) printf '%s\n' "$generated" > "$fixtures/$file" ;;
        check)
            if ! diff -u "$fixtures/$file" <(printf '%s\n' "$generated"); then
                echo "$fixtures/$file is no longer car's text" >&2
                status=1
            fi
            ;;
        *) echo "usage: $0 check|write CAR_PROTO_DIR CAR_SERVER_CORE_DIR" >&2; exit 2 ;;
    esac
done
# The constants the peer names (tests/car_host/peer.rs spells them out).
for line in 'pub const PROTOCOL_VERSION: u32 = 3;' \
    'pub const PROTOCOL_VERSION_MIN: u32 = 3;' \
    'pub const TOOLS_CALLBACK_STATE_CAPABILITY: &str = "tools.callback-state.v1";' \
    'pub const PROTOCOL_HANDSHAKE_REQUIRED_ERROR_CODE: i32 = -32005;' \
    'pub const PROTOCOL_VERSION_MISMATCH_ERROR_CODE: i32 = -32006;' \
    'pub const PROTOCOL_CAPABILITY_MISMATCH_ERROR_CODE: i32 = -32008;' \
    'pub const PROTOCOL_HANDSHAKE_REQUIRED_MESSAGE_PREFIX: &str = "protocol handshake required:";' \
    'pub const PROTOCOL_VERSION_MISMATCH_MESSAGE_PREFIX: &str = "protocol version mismatch:";' \
    'pub const PROTOCOL_CAPABILITY_MISMATCH_MESSAGE_PREFIX: &str = "protocol capability mismatch:";'; do
    grep -qxF "$line" "$proto/src/lib.rs" || { echo "car-proto no longer says: $line" >&2; status=1; }
done
exit "$status"
