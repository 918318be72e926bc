"""A real OAuth 2.1 authorization server for the OAuth peer test, built with Authlib.

Authlib's Flask `AuthorizationServer` runs the client-credentials grant (client
authentication, scope checks, token responses); its RFC 9068 generator signs JWT access
tokens with an RSA key made at start. What is ours: the client list, RFC 8707 (`resource`
becomes the token's `aud`; a resource not allowed for the client is `invalid_target`), and
the RFC 8414 metadata document.

Usage: authorization_server.py [--port 0]   prints `listening on http://127.0.0.1:PORT`.
"""

import argparse
import sys
import threading
import time

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.jose import JsonWebKey
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc6749.errors import OAuth2Error
from authlib.oauth2.rfc9068 import JWTBearerTokenGenerator
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

KEY = JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "as-key-1"})


class Client(ClientMixin):
    def __init__(self, client_id, secret, scope, resources, expires_in=300):
        self.client_id = client_id
        self.secret = secret
        self.scope = scope
        self.resources = resources  # URI prefixes this client may ask tokens for
        self.expires_in = expires_in

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        if not scope:
            return self.scope
        allowed = set(self.scope.split())
        return " ".join(s for s in scope.split() if s in allowed)

    def check_redirect_uri(self, redirect_uri):
        return False

    def check_client_secret(self, client_secret):
        return client_secret == self.secret

    def check_endpoint_auth_method(self, method, endpoint):
        return method in ("client_secret_basic", "client_secret_post")

    def check_response_type(self, response_type):
        return False

    def check_grant_type(self, grant_type):
        return grant_type == "client_credentials"


class InvalidTarget(OAuth2Error):
    error = "invalid_target"


def clients(resource_prefix):
    return {
        c.client_id: c
        for c in [
            Client("writer", "writer-secret", "notes:read notes:write", [resource_prefix]),
            Client("reader", "reader-secret", "notes:read", [resource_prefix]),
            # May ask tokens for any resource: what a token for another server looks like.
            Client("elsewhere", "elsewhere-secret", "notes:read notes:write", ["http"]),
            Client("brief", "brief-secret", "notes:read", [resource_prefix], expires_in=1),
        ]
    }


def build(issuer):
    app = Flask(__name__)
    known = clients("http://127.0.0.1")

    class TokenGenerator(JWTBearerTokenGenerator):
        def get_jwks(self):
            return {"keys": [KEY.as_dict(is_private=True)]}

        def get_audiences(self, client, user, scope):
            return request.form.get("resource") or issuer

    def query_client(client_id):
        return known.get(client_id)

    def save_token(token, req):
        pass

    server = AuthorizationServer(app, query_client=query_client, save_token=save_token)

    class ClientCredentials(grants.ClientCredentialsGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

        def validate_token_request(self):
            super().validate_token_request()
            resource = request.form.get("resource")
            client = self.request.client
            if resource and not any(resource.startswith(p) for p in client.resources):
                raise InvalidTarget(description=f"{resource} is not a resource of {client.client_id}")

    server.register_grant(ClientCredentials)
    generator = TokenGenerator(issuer=issuer, alg="RS256")

    def expires_in(client, grant_type):
        return client.expires_in

    generator._get_expires_in = expires_in
    server.register_token_generator("default", generator)

    @app.post("/token")
    def token():
        return server.create_token_response()

    @app.get("/authorize")
    def authorize():
        return jsonify({"error": "unsupported_response_type"}), 400

    @app.get("/jwks")
    def jwks():
        return jsonify({"keys": [KEY.as_dict(is_private=False)]})

    @app.get("/.well-known/oauth-authorization-server")
    def metadata():
        return jsonify(
            {
                "issuer": issuer,
                # Required by RFC 8414 (and the MCP SDK) even though only client credentials
                # are offered here: it answers `unsupported_response_type`.
                "authorization_endpoint": f"{issuer}/authorize",
                "token_endpoint": f"{issuer}/token",
                "jwks_uri": f"{issuer}/jwks",
                "grant_types_supported": ["client_credentials"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
                "scopes_supported": ["notes:read", "notes:write"],
                "response_types_supported": [],
            }
        )

    return app


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    # Bind first (port 0 picks one), then name the issuer after the bound port.
    placeholder = Flask("placeholder")
    http = make_server("127.0.0.1", args.port, placeholder, threaded=True)
    issuer = f"http://127.0.0.1:{http.server_port}"
    http.app = build(issuer)
    print(f"listening on {issuer}", flush=True)
    http.serve_forever()


if __name__ == "__main__":
    main()
