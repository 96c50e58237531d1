# A copy of a folder holding a hiera.yaml, with another hiera.yaml: how the scripts
# that compile with Puppet change a layer's hierarchy without touching the repository.
require 'tmpdir'
require 'yaml'

# A new folder under `work` with links to the entries of `folder` but its hiera.yaml,
# which is `hiera` (a Hash) written as YAML; its path.
def with_hiera(work, folder, hiera, prefix)
  copy = Dir.mktmpdir(prefix, work)
  Dir.children(folder).each do |entry|
    File.symlink(File.join(folder, entry), File.join(copy, entry)) unless entry == 'hiera.yaml'
  end
  File.write(File.join(copy, 'hiera.yaml'), YAML.dump(hiera))
  copy
end
