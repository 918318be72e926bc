# Sourced by the peer scripts. `apt_install PKG...` installs Debian packages without starting
# their services (nginx would listen on 0.0.0.0:80): policy-rc.d says no for the length of the
# install, if the machine does not already say so.
apt_install() {
    local own_policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
        chmod +x /usr/sbin/policy-rc.d
        own_policy=1
    fi
    timeout 300 apt-get update -qq
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends \
        "$@" >/dev/null
    [ -z "$own_policy" ] || rm -f /usr/sbin/policy-rc.d
}
