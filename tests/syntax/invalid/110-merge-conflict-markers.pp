# @summary The configuration, with a merge conflict left in.
<<<<<<< HEAD
class conflicted { }
=======
class conflicted::config { }
>>>>>>> 84f86b3
