// SPDX-License-Identifier: GPL-2.0
/*
 * platform.c - the platform vcpufreq emulates: clusters of CPUs, one
 * cpufreq policy each, with an OPP table and a power coefficient each.
 *
 * From the module's parameters, every cluster_size consecutive CPUs are
 * a cluster and share one table (x86 VMs have no platform description).
 * From the device tree, when the CPUs have one (the arm64 boards of
 * dts/): the clusters of cpu-map, the operating-points-v2 table each
 * cluster's CPUs share (opp-hz, opp-microvolt) and each CPU's
 * dynamic-power-coefficient, as cpufreq-dt and the energy model would
 * read them on the SoC. A tree that lacks what this needs is refused
 * with the property named; opps=/volts=, cluster_size= and power_coeff=
 * given other than their defaults override the tree.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arch_topology.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "vcpufreq.h"

struct vcf_cluster *vcf_clusters;
unsigned int vcf_nr_clusters;
static struct vcf_cluster **vcf_cpu_cluster;	/* per possible CPU */
static const char *vcf_source = "parameters";

struct vcf_cluster *vcf_cluster_of(unsigned int cpu)
{
	return vcf_cpu_cluster[cpu];
}

const char *vcf_platform_source(void)
{
	return vcf_source;
}

/* The cpufreq table and each OPP's power, once @cl's OPPs are set. */
static void vcf_cluster_finish(struct vcf_cluster *cl, u32 coeff)
{
	unsigned int i;

	cl->power_coeff = coeff;
	for (i = 0; i < cl->nr_opp; i++) {
		cl->table[i].frequency = cl->opp[i].khz;
		cl->table[i].driver_data = i;
		cl->power_uw[i] = ut_opp_power_uw(coeff, &cl->opp[i]);
	}
	cl->table[i].frequency = CPUFREQ_TABLE_END;
}

/* @cl's OPPs from the opps= and volts= lists. */
static int vcf_cluster_from_params(struct vcf_cluster *cl,
				   const struct vcf_platform_params *p)
{
	u32 khz[UT_OPP_MAX], mv[UT_OPP_MAX];
	unsigned int nr_khz, nr_mv = 0;
	const char *why = "malformed list";
	int ret;

	ret = ut_opp_parse_list(p->opps, khz, UT_OPP_MAX, &nr_khz);
	if (!ret && p->volts)
		ret = ut_opp_parse_list(p->volts, mv, UT_OPP_MAX, &nr_mv);
	if (!ret)
		ret = ut_opp_build(cl->opp, khz, nr_khz, p->volts ? mv : NULL,
				   nr_mv, &why);
	if (ret) {
		pr_err("refusing to load: opps=\"%s\" volts=\"%s\": %s (%d)\n",
		       p->opps, p->volts ?: "", why, ret);
		return -EINVAL;
	}
	cl->nr_opp = nr_khz;
	return 0;
}

/* @cl's OPPs from the tree's table @table (opp-hz, opp-microvolt). */
static int vcf_cluster_from_dt(struct vcf_cluster *cl,
			       struct device_node *table)
{
	u32 khz[UT_OPP_MAX], mv[UT_OPP_MAX];
	const char *why = "";
	struct device_node *opp;
	unsigned int n = 0;
	u32 uv;
	u64 hz;

	for_each_available_child_of_node(table, opp) {
		if (n == UT_OPP_MAX) {
			pr_err("refusing to load: %pOF: more than %d OPPs\n",
			       table, UT_OPP_MAX);
			of_node_put(opp);
			return -EINVAL;
		}
		if (of_property_read_u64(opp, "opp-hz", &hz) ||
		    of_property_read_u32_index(opp, "opp-microvolt", 0, &uv)) {
			pr_err("refusing to load: %pOF: no %s\n", opp,
			       of_find_property(opp, "opp-hz", NULL) ?
			       "opp-microvolt" : "opp-hz");
			of_node_put(opp);
			return -EINVAL;
		}
		khz[n] = min_t(u64, div_u64(hz, 1000), U32_MAX);
		mv[n] = uv / 1000;
		n++;
	}
	if (ut_opp_build(cl->opp, khz, n, mv, n, &why)) {
		pr_err("refusing to load: %pOF: %s\n", table, why);
		return -EINVAL;
	}
	cl->nr_opp = n;
	return 0;
}

/* Does the tree describe the CPUs' frequencies at all? */
static bool vcf_dt_has_platform(void)
{
	struct device_node *np = of_cpu_device_node_get(0);
	bool has = np && of_find_property(np, "operating-points-v2", NULL);

	of_node_put(np);
	return has;
}

/*
 * @cpu's OPP table and power coefficient from its node; each missing
 * property is named. The caller puts *@table.
 */
static int vcf_dt_cpu(unsigned int cpu, struct device_node **table,
		      u32 *coeff)
{
	struct device_node *np = of_cpu_device_node_get(cpu);
	int ret = -EINVAL;

	if (!np) {
		pr_err("refusing to load: cpu%u has no device-tree node\n", cpu);
		return -EINVAL;
	}
	*table = of_parse_phandle(np, "operating-points-v2", 0);
	if (!*table)
		pr_err("refusing to load: %pOF: no operating-points-v2\n", np);
	else if (of_property_read_u32(np, "dynamic-power-coefficient", coeff))
		pr_err("refusing to load: %pOF: no dynamic-power-coefficient\n",
		       np);
	else
		ret = 0;
	if (ret) {
		of_node_put(*table);
		*table = NULL;
	}
	of_node_put(np);
	return ret;
}

/*
 * Are @a and @b in one cluster? cpu-map's clusters (the scheduler's
 * cluster siblings; before 5.16 the kernel has none, and the CPUs that
 * share an OPP table are the cluster), or cluster_size= when given.
 */
static bool vcf_dt_same_cluster(const struct vcf_platform_params *p,
				struct device_node **tables,
				unsigned int a, unsigned int b)
{
	if (p->cluster_given)
		return a / p->cluster_size == b / p->cluster_size;
#if defined(CONFIG_GENERIC_ARCH_TOPOLOGY) && defined(topology_cluster_cpumask)
	return cpumask_test_cpu(b, topology_cluster_cpumask(a));
#else
	return tables[a] == tables[b];
#endif
}

/*
 * The clusters of cpu-map, each of whose CPUs must share one OPP table
 * and power coefficient (one policy each, as on the SoC).
 */
static int vcf_platform_from_dt(const struct vcf_platform_params *p)
{
	struct device_node **tables;
	unsigned int cpu, i;
	u32 *coeffs;
	int ret = -ENOMEM;

	tables = kcalloc(nr_cpu_ids, sizeof(*tables), GFP_KERNEL);
	coeffs = kcalloc(nr_cpu_ids, sizeof(*coeffs), GFP_KERNEL);
	vcf_clusters = kcalloc(nr_cpu_ids, sizeof(*vcf_clusters), GFP_KERNEL);
	if (!tables || !coeffs || !vcf_clusters)
		goto out;

	for_each_possible_cpu(cpu) {
		ret = vcf_dt_cpu(cpu, &tables[cpu], &coeffs[cpu]);
		if (ret)
			goto out;
	}
	for_each_possible_cpu(cpu) {
		struct vcf_cluster *cl;

		if (vcf_cpu_cluster[cpu])
			continue;
		cl = &vcf_clusters[vcf_nr_clusters++];
		for_each_possible_cpu(i) {
			if (vcf_cpu_cluster[i] ||
			    !vcf_dt_same_cluster(p, tables, cpu, i))
				continue;
			if ((!p->opps_given && tables[i] != tables[cpu]) ||
			    (!p->coeff_given && coeffs[i] != coeffs[cpu])) {
				pr_err("refusing to load: cpu%u and cpu%u share a cluster but not their operating-points-v2 and dynamic-power-coefficient\n",
				       cpu, i);
				ret = -EINVAL;
				goto out;
			}
			cpumask_set_cpu(i, &cl->cpus);
			vcf_cpu_cluster[i] = cl;
		}
		ret = p->opps_given ? vcf_cluster_from_params(cl, p) :
		      vcf_cluster_from_dt(cl, tables[cpu]);
		if (ret)
			goto out;
		vcf_cluster_finish(cl, p->coeff_given ? p->power_coeff :
				   coeffs[cpu]);
	}
	vcf_source = "device tree";
	ret = 0;
out:
	if (tables)
		for_each_possible_cpu(cpu)
			of_node_put(tables[cpu]);
	kfree(tables);
	kfree(coeffs);
	return ret;
}

/* Every cluster_size consecutive CPUs, all with the parameters' table. */
static int vcf_platform_from_params(const struct vcf_platform_params *p)
{
	unsigned int cpu, n = DIV_ROUND_UP(nr_cpu_ids, p->cluster_size);
	struct vcf_cluster *cl;
	int ret;

	vcf_clusters = kcalloc(n, sizeof(*vcf_clusters), GFP_KERNEL);
	if (!vcf_clusters)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		cl = &vcf_clusters[cpu / p->cluster_size];
		if (!cl->nr_opp) {
			ret = vcf_cluster_from_params(cl, p);
			if (ret)
				return ret;
			vcf_cluster_finish(cl, p->power_coeff);
			vcf_nr_clusters = cpu / p->cluster_size + 1;
		}
		cpumask_set_cpu(cpu, &cl->cpus);
		vcf_cpu_cluster[cpu] = cl;
	}
	return 0;
}

int vcf_platform_init(const struct vcf_platform_params *p)
{
	int ret;

	vcf_cpu_cluster = kcalloc(nr_cpu_ids, sizeof(*vcf_cpu_cluster),
				  GFP_KERNEL);
	if (!vcf_cpu_cluster)
		return -ENOMEM;
	vcf_nr_clusters = 0;
	vcf_source = "parameters";
	if (p->use_dt && vcf_dt_has_platform())
		ret = vcf_platform_from_dt(p);
	else
		ret = vcf_platform_from_params(p);
	if (ret)
		vcf_platform_exit();
	return ret;
}

void vcf_platform_exit(void)
{
	kfree(vcf_clusters);
	kfree(vcf_cpu_cluster);
	vcf_clusters = NULL;
	vcf_cpu_cluster = NULL;
	vcf_nr_clusters = 0;
}
