class demo {
   include demo::install
# <- warning[two-space-soft-tabs]: two-space soft tabs not used
}
