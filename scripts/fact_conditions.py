"""The nodes a finding is about: "... on nodes where $facts['os']['family'] is 'RedHat'".

pupcheck names them when a fact decides the value that fails; a compile confirms such a
finding on a node whose facts say so (scripts/puppet/compile.rb's "facts").
"""
import re

# "... on nodes where $facts['os']['family'] is 'RedHat'" (or `$::osfamily`, or
# "is 'Debian' or 'Suse'": the first is set).
NODES = re.compile(r" on nodes where \$(facts|::\w+)((?:\['[^']+'\])*) is '([^']*)'.*$")


def nodes_facts(match):
    """The fact (by dotted path) and value a finding's "on nodes where" names."""
    root, keys, value = match.groups()
    path = re.findall(r"\['([^']+)'\]", keys)
    if root != 'facts':
        path = [root[2:]] + path
    return {'.'.join(path): value}
