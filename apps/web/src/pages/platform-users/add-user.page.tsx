import { Button, Checkbox, Form, Input, InputNumber, Radio, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { AddUserRequest } from '@helix/shared/schemas/platform-user';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import {
  defaultQuantity,
  formatUsd,
  planPeriod,
  planPrice,
  type Period,
  type Plan,
} from '../../plans/plan-display';
import { addUserPlansQuery } from './add-user.queries';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { addPlatformUser } from './platform-users.api';

interface Values {
  name: string;
  tenantName: string;
  email: string;
  user_name: string;
  password: string;
  subscription: Period;
  planId: number;
  /** Seats on a plan that sells them (at least its userLimit). */
  seats?: number;
  emailstatus: boolean;
}

const FIELDS = ['name', 'tenantName', 'email', 'user_name', 'password', 'subscription', 'planId'] as const;
const rule = (field: string) => [zodRule(AddUserRequest, field)];
const isDynamic = (plan: Plan | undefined) => String(plan?.dynamicQuantity) === 'true';

/**
 * /users/add-user: a customer account on a plan granted by the platform (coupon, no trial). Success
 * shows the server's message and resets the form; a failure only stops the loading state (the client
 * shows the server's message and the fields their errors).
 */
export function AddUserPage() {
  const [form] = Form.useForm<Values>();
  const [params] = useSearchParams();
  const [saving, setSaving] = useState(false);
  const period = Form.useWatch('subscription', form) ?? 'MONTHLY';
  const planId = Form.useWatch('planId', form);
  const seats = Form.useWatch('seats', form);

  const plansQuery = useQuery(addUserPlansQuery());
  // null while loading; none when they failed (the toast says so).
  const plans: Plan[] | null = plansQuery.isError ? [] : (plansQuery.data ?? null);
  useEffect(() => {
    if (plansQuery.errorUpdatedAt > 0) toastError(MSG.failedLoadSubscriptions);
  }, [plansQuery.errorUpdatedAt]);

  const shown = (plans ?? []).filter((p) => planPeriod(p) === period);
  const chosen = shown.find((p) => p.id === planId);
  const included = chosen?.userLimit ?? 1;
  const users = isDynamic(chosen) ? Math.max(included, seats ?? included) : included;
  const price = chosen ? planPrice(chosen, users) : 0;

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const token = params.get('token');
      const answer = await addPlatformUser({
        name: values.name,
        tenantName: values.tenantName,
        email: values.email,
        user_name: values.user_name,
        password: values.password,
        emailstatus: Boolean(values.emailstatus),
        coupon: true,
        trial_period_days: 0,
        planId: values.planId,
        subscription: values.subscription,
        quantity: users,
        ...(token ? { token } : {}),
      });
      toastSuccess(answer.message);
      form.resetFields();
    } catch (error) {
      applyServerErrors(form, error, FIELDS);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="page add-user-page">
      <PageTitle title="Add User" />
      <Typography.Title level={1} className="page-title">
        Add User
      </Typography.Title>
      <Form<Values>
        form={form}
        layout="vertical"
        name="add-user"
        style={{ maxWidth: 560 }}
        initialValues={{ subscription: 'MONTHLY', emailstatus: false }}
        onFinish={(values) => void submit(values)}
        onValuesChange={(changed: Partial<Values>) => {
          if (changed.subscription) form.setFieldsValue({ planId: undefined, seats: undefined });
          if (changed.planId !== undefined) {
            const plan = (plans ?? []).find((p) => p.id === changed.planId);
            form.setFieldsValue({ seats: plan?.userLimit ?? 1 });
          }
        }}
      >
        <Form.Item label="Name" name="name" rules={rule('name')} required>
          <Input autoComplete="off" maxLength={100} />
        </Form.Item>
        <Form.Item
          label="School or organisation"
          name="tenantName"
          rules={[{ required: true, message: MSG.addUserTenantName }, ...rule('tenantName')]}
          required
        >
          <Input autoComplete="off" maxLength={100} data-testid="add-user-tenant-name" />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={rule('email')} required>
          <Input autoComplete="off" maxLength={254} />
        </Form.Item>
        <Form.Item label="Username" name="user_name" rules={rule('user_name')} required>
          <Input autoComplete="off" maxLength={40} />
        </Form.Item>
        <Form.Item
          label="Password"
          name="password"
          rules={rule('password')}
          required
          extra={MSG.passwordRuleHint}
        >
          <Input.Password autoComplete="new-password" maxLength={200} />
        </Form.Item>
        <Form.Item label="Subscription type" name="subscription" rules={rule('subscription')} required>
          <Radio.Group
            options={[
              { value: 'MONTHLY', label: 'Monthly' },
              { value: 'YEARLY', label: 'Annual' },
            ]}
            optionType="button"
          />
        </Form.Item>
        <Form.Item label="Plan" name="planId" rules={rule('planId')} required>
          {plans === null ? (
            <Spin aria-label="Loading plans" />
          ) : (
            <Radio.Group className="plan-choice">
              {shown.map((plan) => (
                <Radio key={plan.id} value={plan.id} data-testid={`plan-${plan.id}`}>
                  {plan.name} ({formatUsd(planPrice(plan, defaultQuantity(plan)))}, {plan.userLimit ?? 1}{' '}
                  users)
                </Radio>
              ))}
            </Radio.Group>
          )}
        </Form.Item>
        {chosen && (
          <Form.Item
            label="Seats (users on the plan, the owner included)"
            name="seats"
            extra={isDynamic(chosen) ? `At least ${included}` : 'Fixed by this plan'}
          >
            <InputNumber
              min={included}
              max={isDynamic(chosen) ? 10_000 : included}
              precision={0}
              disabled={!isDynamic(chosen)}
              data-testid="add-user-seats"
            />
          </Form.Item>
        )}
        {chosen && (
          <p data-testid="add-user-price">
            {users} users, {formatUsd(price)} per {period === 'YEARLY' ? 'year' : 'month'}; granted by the
            platform (100% coupon, no trial).
          </p>
        )}
        <Form.Item name="emailstatus" valuePropName="checked">
          <Checkbox>Subscribe to the Helix newsletter</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="add-user-save">
          SAVE
        </Button>
      </Form>
    </section>
  );
}
