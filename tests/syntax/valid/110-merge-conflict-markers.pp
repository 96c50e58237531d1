# @summary The configuration, with the merge conflict resolved.
class conflicted::config { }
