"""The modules Puppet ships with itself (cron_core, mount_core, sshkeys_core, ...):
an agent keeps them in its vendor_modules, last on every modulepath; Debian packages
them as puppet-module-puppetlabs-*-core. The scripts that confirm findings with a
compile put them last on the compile's modulepath, as an agent does."""
import glob
import json
import os
import re


# The modules Puppet 7's agent vendors.
AGENT_VENDORED = {
    'augeas_core', 'cron_core', 'host_core', 'mailalias_core', 'maillist_core', 'mount_core',
    'scheduled_task', 'selinux_core', 'sshkeys_core', 'yumrepo_core', 'zfs_core', 'zone_core',
}


def bundled_modules(parent, more=()):
    """A folder under `parent` of links, by module name, to the bundled modules this
    machine has, and to those of `more` (folders of modules, e.g. checkouts of the
    ones Debian does not package) it lacks; its path."""
    folder = os.path.join(parent, 'bundled')
    os.makedirs(folder, exist_ok=True)
    roots = sorted(glob.glob('/opt/puppetlabs/puppet/vendor_modules/*') +
                   glob.glob('/usr/share/puppet/modules.available/puppetlabs-*-core'))
    for root in roots + list(more):
        if not os.path.exists(os.path.join(root, 'metadata.json')):
            continue
        with open(os.path.join(root, 'metadata.json')) as f:
            name = re.split(r'[-/]', json.load(f)['name'], maxsplit=1)[-1]
        link = os.path.join(folder, name)
        if name in AGENT_VENDORED and not os.path.lexists(link):
            os.symlink(root, link)
    return folder
